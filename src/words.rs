//! English for counts: every message that says how many of something
//! there are says it through here, so "1 lives left" cannot come back.
//! A leaf: it knows nothing of delve.

/// `n` and the noun, singular for exactly one: `count(1, "life", "lives")`
/// is "1 life", `count(3, "life", "lives")` is "3 lives".
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The noun alone, singular for exactly one.
pub fn noun<'a>(n: impl Into<u64>, one: &'a str, many: &'a str) -> &'a str {
    if n.into() == 1 { one } else { many }
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
}
