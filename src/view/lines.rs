//! Text cut to a terminal's width: words wrapped at spaces, and the
//! top line's pages. Both the app (which must know whether a page is
//! still unread) and the screen (which draws it) measure text the same way
//! through here.

use unicode_width::UnicodeWidthStr;

/// What ends a top line with more to read (NetHack's and DCSS's words).
pub const MORE: &str = "--more--";

/// The top line's pages at `width` columns: the messages in order, as
/// many to a page as fit, a message longer than a page broken at spaces.
/// Every page but the last leaves room for a space and [`MORE`]. Messages
/// that all fit are one page, and no messages one empty page.
pub fn message_pages(messages: &[String], width: usize) -> Vec<String> {
    let all = messages.join(" ");
    if UnicodeWidthStr::width(all.as_str()) <= width {
        return vec![all];
    }
    let room = width.saturating_sub(MORE.len() + 1).max(2);
    let mut pages = Vec::new();
    let mut page = String::new();
    for piece in messages.iter().flat_map(|m| wrap_indented(m, room, "")) {
        let used = UnicodeWidthStr::width(page.as_str());
        if page.is_empty() {
            page = piece;
        } else if used + 1 + UnicodeWidthStr::width(piece.as_str()) <= room {
            page.push(' ');
            page.push_str(&piece);
        } else {
            pages.push(std::mem::replace(&mut page, piece));
        }
    }
    pages.push(page);
    pages
}

/// The newest of `messages` that fit `width` columns, for a top line that
/// cannot wait to be read (travel, a replay): older messages give way
/// whole, then the newest is cut at its end, and `hint` (which names the
/// history, where everything is) says so.
pub fn newest_that_fit(messages: &[String], width: usize, hint: &str) -> String {
    let all = messages.join(" ");
    if UnicodeWidthStr::width(all.as_str()) <= width {
        return all;
    }
    let room = width.saturating_sub(UnicodeWidthStr::width(hint));
    let mut kept: Vec<&str> = Vec::new();
    let mut used = 0;
    for m in messages.iter().rev() {
        let len = UnicodeWidthStr::width(m.as_str()) + usize::from(!kept.is_empty());
        if used + len > room {
            break;
        }
        used += len;
        kept.insert(0, m);
    }
    let text = if kept.is_empty() {
        let newest = messages.last().map_or("", String::as_str);
        let cut = wrap_indented(newest, room.saturating_sub(1).max(2), "")
            .into_iter()
            .next()
            .unwrap_or_default();
        format!("{cut}…")
    } else {
        kept.join(" ")
    };
    format!("{text}{hint}")
}

/// A message as screen lines of at most `width` characters (a word longer
/// than a line is cut by the line), broken at spaces, continuations
/// indented.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_indented(text, width.max(8), "  ")
}

/// `text` in lines at most `width` columns wide as a terminal shows them
/// (unicode-width: a CJK character takes two), broken at spaces, each line
/// after the first starting with `indent`. Only a word wider than a whole
/// line is broken inside, where it reaches the edge.
pub(crate) fn wrap_indented(text: &str, width: usize, indent: &str) -> Vec<String> {
    use unicode_width::UnicodeWidthChar;
    let indent_width = UnicodeWidthStr::width(indent);
    // Room for the indent and a character of any width.
    let width = width.max(indent_width + 2);
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut used = 0;
    let mut first_word = true;
    for word in text.split(' ') {
        if !first_word {
            if used + 1 + UnicodeWidthStr::width(word) <= width {
                current.push(' ');
                used += 1;
            } else {
                lines.push(std::mem::replace(&mut current, indent.to_string()));
                used = indent_width;
            }
        }
        first_word = false;
        for c in word.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > width {
                lines.push(std::mem::replace(&mut current, indent.to_string()));
                used = indent_width;
            }
            current.push(c);
            used += w;
        }
    }
    lines.push(current);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn width(line: &str) -> usize {
        UnicodeWidthStr::width(line)
    }

    #[test]
    fn wrapping_breaks_at_spaces_within_the_width() {
        let text = "A goblin (g), unhurt: hits for 1d6; smart, as fast as you. A sly little raider with a bag of stolen teeth.";
        for w in [80, 40, 24, 13] {
            let lines = wrap_indented(text, w, "");
            assert!(lines.iter().all(|l| width(l) <= w), "{w}: {lines:?}");
            // Nothing lost or cut inside a word: the lines joined at the
            // breaks are the text.
            assert_eq!(lines.join(" "), text, "{w}");
            assert!(lines.len() > 1, "{w}");
        }
        assert_eq!(wrap_indented(text, 200, ""), vec![text.to_string()]);
    }

    #[test]
    fn wrapping_counts_columns_not_characters() {
        // Two columns a character: five fit in ten columns, not ten.
        let lines = wrap_indented("漢字漢字漢 字", 10, "");
        assert_eq!(lines, vec!["漢字漢字漢", "字"]);
        let lines = wrap_indented("ab 漢字漢字漢字", 9, "");
        assert_eq!(lines, vec!["ab", "漢字漢字", "漢字"]);
        assert!(lines.iter().all(|l| width(l) <= 9));
    }

    #[test]
    fn a_word_wider_than_a_line_is_broken_at_the_edge() {
        let lines = wrap_indented("see abcdefghijkl end", 8, "");
        assert_eq!(lines, vec!["see", "abcdefgh", "ijkl end"]);
        // Continuations keep their indent, and the history's wrapping is
        // what it was for ordinary text.
        assert_eq!(
            wrap("one two three four five", 12),
            vec!["one two", "  three four", "  five"]
        );
    }

    #[test]
    fn pages_hold_every_message_in_order_within_the_width() {
        let messages: Vec<String> = [
            "You hit the troll for 5 (almost dead).",
            "The troll hits you for 8.",
            "The goblin hits you for 2.",
            "The kobold misses you.",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for w in [80, 40, 30, 20] {
            let pages = message_pages(&messages, w);
            assert!(pages.len() > 1, "{w}: {pages:?}");
            let (last, rest) = pages.split_last().unwrap();
            assert!(rest.iter().all(|p| width(p) + 1 + MORE.len() <= w), "{w}");
            assert!(width(last) <= w, "{w}");
            assert_eq!(pages.join(" "), messages.join(" "), "{w}");
        }
        // Narrower than a word plus --more--: words break inside, and no
        // letter is lost (nor a panic).
        for w in 0..12 {
            let pages = message_pages(&messages, w);
            let text: String = pages.concat().split_whitespace().collect();
            assert_eq!(text, messages.concat().replace(' ', ""), "{w}");
        }
        assert_eq!(message_pages(&messages, 200), vec![messages.join(" ")]);
        assert_eq!(message_pages(&[], 80), vec![String::new()]);
    }
}
