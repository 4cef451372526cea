//! The English of delve's messages: counts (every message that says how
//! many of something there are says it through here, so "1 lives left"
//! cannot come back), articles, capitals and how hurt something looks.
//! A leaf: it knows nothing of delve.

/// `n` and the noun, singular for exactly one: `count(1, "life", "lives")`
/// is "1 life", `count(3, "life", "lives")` is "3 lives".
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A number with its thousands apart, as a person writes it: 500000 is
/// "500,000".
pub fn number(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// "a dagger", "an orc", "an umber hulk": a name with its article.
pub fn article(name: &str) -> String {
    let vowel = name
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// How hurt a monster looks, for messages and look mode.
pub fn wound_word(hp: u16, max: u16) -> &'static str {
    let share = u32::from(hp) * 100 / u32::from(max.max(1));
    match share {
        100.. => "unhurt",
        75..=99 => "lightly wounded",
        50..=74 => "wounded",
        25..=49 => "badly wounded",
        _ => "almost dead",
    }
}

/// The text with its first letter a capital: "An orc" at a sentence's start.
pub fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The noun alone, singular for exactly one.
pub fn noun<'a>(n: impl Into<u64>, one: &'a str, many: &'a str) -> &'a str {
    if n.into() == 1 { one } else { many }
}

/// The plural of an item's name: its head noun gains an `s` ("potion of
/// healing" becomes "potions of healing", "dart" "darts"), and a noun
/// that ends in s, x, sh or ch an `es`.
pub fn plural_name(name: &str) -> String {
    let (head, rest) = match name.find(" of ").or_else(|| name.find(" labelled ")) {
        Some(at) => name.split_at(at),
        None => (name, ""),
    };
    let ending = if ["s", "x", "sh", "ch"].iter().any(|e| head.ends_with(e)) {
        "es"
    } else {
        "s"
    };
    format!("{head}{ending}{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1u32, "life", "lives"), "1 life");
        assert_eq!(count(0u32, "life", "lives"), "0 lives");
        assert_eq!(count(2u64, "checkpoint", "checkpoints"), "2 checkpoints");
        assert_eq!(noun(1u8, "action", "actions"), "action");
        assert_eq!(noun(7u8, "action", "actions"), "actions");
    }

    #[test]
    fn item_names_take_the_plural_on_their_head_noun() {
        assert_eq!(plural_name("potion of healing"), "potions of healing");
        assert_eq!(
            plural_name("scroll of magic mapping"),
            "scrolls of magic mapping"
        );
        assert_eq!(plural_name("dart"), "darts");
        assert_eq!(plural_name("flask of fire"), "flasks of fire");
        assert_eq!(plural_name("box"), "boxes");
    }

    #[test]
    fn numbers_keep_their_thousands_apart() {
        assert_eq!(number(0u64), "0");
        assert_eq!(number(999u64), "999");
        assert_eq!(number(1000u64), "1,000");
        assert_eq!(number(500_000u64), "500,000");
        assert_eq!(number(u64::MAX), "18,446,744,073,709,551,615");
    }
}
