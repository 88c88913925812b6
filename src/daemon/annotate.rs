//! What the daemon adds to a game's PGN text after its conversion: a tag (the
//! file a review game came from) and a comment before the first move (a
//! finding only the daemon can make, `duplicate-board`).

/// Longest comment line, as the PGN writer wraps its own.
const LINE: usize = 80;

/// Where the tag section of `pgn` ends: after its last tag line (0 when it
/// has none).
fn tags_end(pgn: &str) -> usize {
    let mut end = 0;
    for line in pgn.split_inclusive('\n') {
        if !line.starts_with('[') {
            break;
        }
        end += line.len();
    }
    end
}

/// `pgn` with the tag `[key "value"]` after its other tags, unless it has one
/// of that name. The value is escaped as PGN asks, control characters made spaces.
pub(super) fn with_tag(pgn: &str, key: &str, value: &str) -> String {
    let end = tags_end(pgn);
    if pgn[..end].lines().any(|l| l.strip_prefix('[').is_some_and(|t| t.split_once(' ').is_some_and(|(k, _)| k == key)))
    {
        return pgn.to_string();
    }
    let mut v = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => v.push_str("\\\\"),
            '"' => v.push_str("\\\""),
            c if c.is_control() => v.push(' '),
            c => v.push(c),
        }
    }
    format!("{}[{key} \"{v}\"]\n{}", &pgn[..end], &pgn[end..])
}

/// `pgn` with `{text}` before its first move (after the blank line that
/// ends the tags), wrapped at 80 characters.
pub(super) fn with_comment(pgn: &str, text: &str) -> String {
    let end = tags_end(pgn);
    let body = &pgn[end..];
    let (blank, moves) = match body.strip_prefix('\n') {
        Some(m) => ("\n", m),
        None => ("", body),
    };
    let text = text.replace(['{', '}'], "");
    let mut comment = String::from("{");
    let mut line = 1;
    for (i, w) in text.split_whitespace().enumerate() {
        let len = w.chars().count();
        if i > 0 && line + 1 + len > LINE {
            comment.push('\n');
            line = 0;
        } else if i > 0 {
            comment.push(' ');
            line += 1;
        }
        comment.push_str(w);
        line += len;
    }
    comment.push_str("}\n");
    format!("{}{blank}{comment}{moves}", &pgn[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    const PGN: &str = "[Event \"Open\"]\n[White \"A\"]\n\n1. e4 e5 *\n";

    #[test]
    fn a_tag_goes_after_the_others_and_a_comment_before_the_moves() {
        let tagged = with_tag(PGN, "SourceFile", "mesa \"7\".txt");
        assert_eq!(tagged, "[Event \"Open\"]\n[White \"A\"]\n[SourceFile \"mesa \\\"7\\\".txt\"]\n\n1. e4 e5 *\n");
        assert_eq!(with_tag(&tagged, "SourceFile", "other"), tagged, "never two of one tag");
        let long = "word ".repeat(40);
        let noted = with_comment(PGN, &long);
        assert!(noted.starts_with("[Event \"Open\"]\n[White \"A\"]\n\n{word word"), "{noted}");
        assert!(noted.ends_with("word}\n1. e4 e5 *\n"), "{noted}");
        assert!(noted.lines().all(|l| l.chars().count() <= LINE), "{noted}");
    }
}
