//! Where each key of a RON file was written. serde forgets places once a
//! value is parsed, and checks that run afterwards still need to point at
//! a line, inside the right entry of a list. A scanner of brackets rather
//! than a second parser, kept linear in the file's length: columns by
//! binary search over the multi-byte characters, brackets followed only
//! as deep as ron would, keys indexed only under short paths.

use std::rc::Rc;

/// The index of the first byte at or after `i` that is neither whitespace
/// nor inside a comment.
fn skip_blank(bytes: &[u8], mut i: usize) -> usize {
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            match bytes[i + 2..].windows(2).position(|w| w == b"*/") {
                Some(end) => i += 2 + end + 2,
                None => return bytes.len(),
            }
        } else {
            return i;
        }
    }
}

pub(super) fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}.{name}")
    }
}

/// Where each `key:` of a RON struct stands in the text, with its dotted
/// path (`rooms.count.min`), so errors found after parsing can point at the
/// line that set the value. A small scanner rather than a second parser: it
/// only needs to follow brackets, strings and comments.
#[derive(Debug, Default)]
pub(crate) struct FieldIndex {
    /// (path, line, column of the key, byte offset where its value ends)
    pub(crate) keys: Vec<(String, usize, usize, usize)>,
    /// Byte offset of the start of each line. Columns count characters, as
    /// ron's do, so the text is kept to convert between the two.
    line_starts: Vec<usize>,
    /// Each character longer than one byte: its byte offset, and the bytes
    /// beyond one a character of all such characters before it and up to
    /// it. Characters between two offsets are then counted by binary
    /// search: counting them by walking the line, key after key, made a
    /// list written on one line of megabytes take minutes.
    wide: Vec<(usize, usize, usize)>,
    text: String,
    /// The innermost bracket never closed: the bracket, its byte offset, and
    /// the path of the field whose value it opens ("" for none).
    pub(super) unclosed: Option<(char, usize, String)>,
    /// The entries of lists, in order: the path of the field whose list
    /// holds them, the byte offsets of the entry's opening bracket and
    /// just past its closing one, and its place in its own list (from 0).
    /// Entries of a list share their keys' paths (`profiles.depths` for
    /// every profile), so these tell them apart.
    entries: Vec<(Rc<str>, usize, usize, usize)>,
    /// For each entry, the byte offset of its list's `[`.
    entry_lists: Vec<usize>,
}

/// Brackets deeper than this are counted, not followed: ron refuses a file
/// nested past 128, and following each of millions of brackets would take
/// memory for each.
const MAX_SCAN_DEPTH: usize = 256;

/// A key is indexed only while the path of the struct it sits in is at
/// most this long. The longest path a data file has is some 40 bytes, and
/// without a bound each key under a long path (a long unknown key, or keys
/// nested deep) would copy that path: quadratic in the file's length.
const MAX_INDEXED_PARENT: usize = 128;

/// A bracket the scanner has open.
struct Open {
    /// The path of the key whose value it opened, or the parent's path for
    /// a bracket no key opened (shared, so an open bracket copies none).
    path: Rc<str>,
    /// That key's index, if a key opened it.
    owner: Option<usize>,
    /// Where it stands.
    at: usize,
    /// The list entry it opens, if it opens one.
    entry: Option<usize>,
    /// For a list: how many entries it has opened so far.
    entries: usize,
}

impl FieldIndex {
    pub(crate) fn scan(text: &str) -> FieldIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        let mut wide = Vec::new();
        let mut extra = 0;
        if !text.is_ascii() {
            for (i, c) in text.char_indices().filter(|(_, c)| !c.is_ascii()) {
                let before = extra;
                extra += c.len_utf8() - 1;
                wide.push((i, before, extra));
            }
        }
        let mut index = FieldIndex {
            keys: Vec::new(),
            line_starts,
            wide,
            text: text.to_string(),
            unclosed: None,
            entries: Vec::new(),
            entry_lists: Vec::new(),
        };
        let mut stack: Vec<Open> = Vec::new();
        // Brackets open past MAX_SCAN_DEPTH.
        let mut deeper = 0usize;
        let mut pending: Option<usize> = None; // key index whose value is next
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'/' if matches!(bytes.get(i + 1), Some(b'/' | b'*')) => {
                    i = after_comment(bytes, i);
                    continue;
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                // A character ('(' is a glyph, not a bracket).
                b'\'' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'\'' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'(' | b'[' | b'{' if stack.len() >= MAX_SCAN_DEPTH => {
                    pending = None;
                    deeper += 1;
                }
                b')' | b']' | b'}' if deeper > 0 => deeper -= 1,
                b'(' | b'[' | b'{' => {
                    let parent = stack
                        .last()
                        .map_or_else(|| Rc::from(""), |s| s.path.clone());
                    let in_list = stack.last().is_some_and(|s| bytes[s.at] == b'[');
                    let (path, owner) = match pending.take() {
                        Some(k) => (Rc::from(index.keys[k].0.as_str()), Some(k)),
                        None => (parent, None),
                    };
                    let entry = (in_list && owner.is_none()).then(|| {
                        let list = stack.last_mut().expect("in a list");
                        index
                            .entries
                            .push((path.clone(), i, usize::MAX, list.entries));
                        index.entry_lists.push(list.at);
                        list.entries += 1;
                        index.entries.len() - 1
                    });
                    stack.push(Open {
                        path,
                        owner,
                        at: i,
                        entry,
                        entries: 0,
                    });
                }
                b')' | b']' | b'}' => {
                    // A struct's last value ends at its closing bracket.
                    if let Some(k) = pending.take() {
                        index.keys[k].3 = i;
                    }
                    if let Some(Open { owner, entry, .. }) = stack.pop() {
                        if let Some(k) = owner {
                            index.keys[k].3 = i + 1;
                        }
                        if let Some(e) = entry {
                            index.entries[e].2 = i + 1;
                        }
                    }
                }
                b',' => {
                    if let Some(k) = pending.take() {
                        index.keys[k].3 = i;
                    }
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let start = i;
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
                    {
                        i += 1;
                    }
                    let j = skip_blank(bytes, i);
                    // `key:` but not `key::`, and only directly inside a struct.
                    if bytes.get(j) == Some(&b':')
                        && bytes.get(j + 1) != Some(&b':')
                        && deeper == 0
                        && let Some(parent) = stack.last().map(|s| &s.path)
                        && parent.len() <= MAX_INDEXED_PARENT
                    {
                        if let Some(k) = pending.take() {
                            index.keys[k].3 = start;
                        }
                        let path = join(parent, &text[start..i]);
                        let (line, column) = index.line_col(start);
                        index.keys.push((path, line, column, usize::MAX));
                        pending = Some(index.keys.len() - 1);
                        i = j + 1;
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        index.unclosed = stack.pop().map(
            |Open {
                 path, owner, at, ..
             }| {
                (
                    char::from(bytes[at]),
                    at,
                    owner.map_or(String::new(), |_| path.to_string()),
                )
            },
        );
        index
    }

    /// The text before byte `at`, with each list's entries before the last
    /// one that starts before `at` left out (a list of a thousand entries
    /// keeps one), and where `at` falls in what is left. Parsed, it reads
    /// the same up to `at`: every entry of a list has one type.
    pub(super) fn probe_prefix(&self, at: usize) -> (String, usize) {
        // For each list, its first entry and the last one starting before
        // `at` (entries are in the order they open).
        let mut cuts: Vec<(usize, usize)> = Vec::new();
        let mut firsts: std::collections::BTreeMap<usize, (usize, usize)> = Default::default();
        for (e, &list) in self.entries.iter().zip(&self.entry_lists) {
            if e.1 >= at {
                continue;
            }
            firsts
                .entry(list)
                .and_modify(|span| span.1 = e.1)
                .or_insert((e.1, e.1));
        }
        cuts.extend(firsts.into_values().filter(|(a, b)| a < b));
        // A list inside a cut entry goes with it.
        cuts.sort_unstable();
        let mut out = String::with_capacity(at.min(4096));
        let (mut from, mut removed) = (0, 0);
        for (a, b) in cuts {
            if a < from {
                continue;
            }
            out.push_str(&self.text[from..a]);
            removed += b - a;
            from = b;
        }
        out.push_str(&self.text[from..at]);
        (out, at - removed)
    }

    /// Where the text ends, not counting trailing whitespace: just past its
    /// last character.
    pub(super) fn end_of_content(&self) -> (usize, usize) {
        self.line_col(self.text.trim_end().len())
    }

    /// Whether nothing but whitespace and comments follows a (line,
    /// character column) position.
    pub(super) fn blank_from(&self, line: usize, column: usize) -> bool {
        let at = self.offset(line, column).min(self.text.len());
        skip_blank(self.text.as_bytes(), at) >= self.text.len()
    }

    pub(super) fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line - 1];
        (line, self.chars_between(start, offset) + 1)
    }

    /// Bytes beyond one a character of the characters before byte `at`.
    fn extra_before(&self, at: usize) -> usize {
        match self.wide.partition_point(|&(o, _, _)| o < at) {
            0 => 0,
            i => self.wide[i - 1].2,
        }
    }

    /// Characters from byte `a` up to byte `b`.
    fn chars_between(&self, a: usize, b: usize) -> usize {
        (b - a) - (self.extra_before(b) - self.extra_before(a))
    }

    /// The byte offset of a (line, character column) position: the
    /// character that many after the line's start (past its end, on the
    /// lines after; past the text, its end).
    pub(super) fn offset(&self, line: usize, column: usize) -> usize {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return usize::MAX;
        };
        let nth = column.saturating_sub(1);
        // The wide characters from the line on, and how many of them come
        // before the one asked for: each adds its extra bytes.
        let first = self.wide.partition_point(|&(o, _, _)| o < start);
        let skipped = self.extra_before(start);
        let wide = &self.wide[first..];
        let before = wide.partition_point(|&(o, extra, _)| (o - start) - (extra - skipped) < nth);
        let extra = match before {
            0 => 0,
            n => wide[n - 1].2 - skipped,
        };
        (start + nth + extra).min(self.text.len())
    }

    /// Where the `n`-th occurrence of a key is written (list entries share
    /// their field paths).
    pub(crate) fn locate_nth(&self, path: &str, n: usize) -> (usize, usize) {
        self.keys
            .iter()
            .filter(|k| k.0 == path)
            .nth(n)
            .map_or((1, 1), |k| (k.1, k.2))
    }

    pub(crate) fn is_written(&self, path: &str) -> bool {
        self.keys.iter().any(|k| k.0 == path)
    }

    /// The byte span of the `n`-th entry of the list that is the value of
    /// the field `list` (a dotted path).
    fn entry_span(&self, list: &str, n: usize) -> Option<(usize, usize)> {
        self.entries
            .iter()
            .filter(|e| &*e.0 == list)
            .nth(n)
            .map(|e| (e.1, e.2))
    }

    /// Where the `n`-th entry of the list `list` writes the key `path` (a
    /// full dotted path, `profiles.rooms.count.max`), if it does.
    pub(crate) fn written_in_entry(
        &self,
        list: &str,
        n: usize,
        path: &str,
    ) -> Option<(usize, usize)> {
        let (start, end) = self.entry_span(list, n)?;
        self.keys
            .iter()
            .filter(|k| k.0 == path)
            .find(|k| (start..end).contains(&self.offset(k.1, k.2)))
            .map(|k| (k.1, k.2))
    }

    /// Where the `n`-th entry of `list` sets `path`; for a field it leaves
    /// out, its nearest written ancestor inside the entry; failing that,
    /// the entry's opening bracket. `None` if the list has no such entry.
    pub(crate) fn locate_in_entry(
        &self,
        list: &str,
        n: usize,
        path: &str,
    ) -> Option<(usize, usize)> {
        let (start, _) = self.entry_span(list, n)?;
        let mut p = path;
        while p.len() > list.len() {
            if let Some(at) = self.written_in_entry(list, n, p) {
                return Some(at);
            }
            p = p.rsplit_once('.').map_or("", |(parent, _)| parent);
        }
        Some(self.line_col(start))
    }

    /// Where the `m`-th entry of the list `inner` inside the `n`-th entry
    /// of the list `outer` writes the key `path` (`abilities.range` in the
    /// third ability of the second monster); failing that, where that inner
    /// entry opens; failing that, where the outer entry writes `inner`.
    /// `None` if the outer list has no such entry.
    pub(crate) fn locate_in_nested_entry(
        &self,
        (outer, n): (&str, usize),
        (inner, m): (&str, usize),
        path: &str,
    ) -> Option<(usize, usize)> {
        let (start, end) = self.entry_span(outer, n)?;
        let Some(&(_, from, to, _)) = self
            .entries
            .iter()
            .filter(|e| &*e.0 == inner && start <= e.1 && e.2 <= end)
            .nth(m)
        else {
            return self.locate_in_entry(outer, n, inner);
        };
        let key = self
            .keys
            .iter()
            .filter(|k| k.0 == path)
            .find(|k| (from..to).contains(&self.offset(k.1, k.2)))
            .map(|k| (k.1, k.2));
        Some(key.unwrap_or_else(|| self.line_col(from)))
    }

    /// `path`, a field's dotted path as the index keeps it (the entries of
    /// a list share their paths: `profiles.rooms.count`), with the place of
    /// each list entry the byte offset `at` stands in written after its
    /// list, as checks name fields: `profiles[1].rooms.count`, or `[2].map`
    /// in a file that is a list.
    pub(super) fn indexed(&self, path: &str, at: usize) -> String {
        let mut within: Vec<&(Rc<str>, usize, usize, usize)> = self
            .entries
            .iter()
            .filter(|e| e.1 <= at && at < e.2)
            .collect();
        within.sort_by_key(|e| e.1);
        let mut out = String::new();
        let mut done = 0;
        for (list, _, _, n) in within {
            let prefix = list.len() >= done
                && path.starts_with(&**list)
                && (list.len() == path.len()
                    || list.is_empty()
                    || path[list.len()..].starts_with('.'));
            if prefix {
                out.push_str(&path[done..list.len()]);
                out.push_str(&format!("[{n}]"));
                done = list.len();
            }
        }
        let rest = &path[done..];
        if out.ends_with(']') && !rest.is_empty() && !rest.starts_with('.') {
            out.push('.');
        }
        out.push_str(rest);
        out
    }

    /// [`FieldIndex::indexed`] at a (line, character column) position.
    pub(super) fn indexed_at(&self, path: &str, line: usize, column: usize) -> String {
        self.indexed(path, self.offset(line, column))
    }

    /// The character at a (line, character column) position.
    pub(super) fn char_at(&self, line: usize, column: usize) -> Option<char> {
        self.text.get(self.offset(line, column)..)?.chars().next()
    }

    /// Where the field is set; for a field left to its default, where its
    /// nearest written ancestor is; failing that, the start of the file.
    pub(crate) fn locate(&self, path: &str) -> (usize, usize) {
        let mut p = path;
        loop {
            if let Some(k) = self.keys.iter().rev().find(|k| k.0 == p) {
                return (k.1, k.2);
            }
            match p.rsplit_once('.') {
                Some((parent, _)) => p = parent,
                None => return (1, 1),
            }
        }
    }

    /// The innermost field whose key or value spans the position.
    pub(super) fn enclosing(
        &self,
        line: usize,
        column: usize,
    ) -> Option<&(String, usize, usize, usize)> {
        let at = self.offset(line, column);
        self.keys
            .iter()
            .filter(|k| {
                let start = self.offset(k.1, k.2);
                start <= at && at < k.3
            })
            .max_by_key(|k| self.offset(k.1, k.2))
    }

    /// The field whose key starts exactly at the position.
    pub(super) fn key_at(&self, line: usize, column: usize) -> Option<&str> {
        self.keys
            .iter()
            .find(|k| k.1 == line && k.2 == column)
            .map(|k| k.0.as_str())
    }
}

/// The index just past the RON comment starting at `i` (`//` to the end of
/// the line, or `/* */`, which nest in RON), for the small scanners that
/// locate fields in a file's text.
pub(crate) fn after_comment(bytes: &[u8], mut i: usize) -> usize {
    if bytes.get(i + 1) == Some(&b'/') {
        while i < bytes.len() && bytes[i] != b'\n' {
            i += 1;
        }
        return i;
    }
    let mut depth = 0usize;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                break;
            }
        } else {
            i += 1;
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_field_error_points_at_nearest_written_parent() {
        // A field left to its default is located at its nearest written
        // ancestor, or at the start of the file.
        let idx = FieldIndex::scan("(\n  rooms: (circle_share: 0.1),\n)");
        assert_eq!(idx.locate("rooms.count.min"), (2, 3));
        assert_eq!(idx.locate("tunnel.open_cost"), (1, 1));
    }

    #[test]
    fn field_index_paths() {
        let idx = FieldIndex::scan("(a: 1, b: (c: (d: 2), e: [1, 2]), // f: 3\n g: \"h: i\")");
        let paths: Vec<&str> = idx.keys.iter().map(|k| k.0.as_str()).collect();
        assert_eq!(paths, ["a", "b", "b.c", "b.c.d", "b.e", "g"]);
    }
}
