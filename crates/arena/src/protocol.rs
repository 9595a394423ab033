//! The line syntax of Crown's engine protocol (`docs/protocol.md`, modelled on Scan's Hub
//! protocol), shared by the client ([`crate::external`]) and the `crown engine` command.

/// Split a protocol line into its command word and `key=value` pairs (values may be "quoted").
/// Bare words after the command are returned as keys with an empty value.
pub fn parse_line(line: &str) -> Result<(String, Vec<(String, String)>), String> {
    let mut chars = line.trim().chars().peekable();
    let mut words: Vec<(String, String)> = Vec::new();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '=' {
                break;
            }
            key.push(c);
            chars.next();
        }
        let mut value = String::new();
        if chars.peek() == Some(&'=') {
            chars.next();
            if chars.peek() == Some(&'"') {
                chars.next();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '"' {
                        closed = true;
                        break;
                    }
                    value.push(c);
                }
                if !closed {
                    return Err(format!("unterminated quote after {key}="));
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    value.push(c);
                    chars.next();
                }
            }
        }
        words.push((key, value));
    }
    if words.is_empty() {
        return Ok((String::new(), Vec::new()));
    }
    let cmd = words.remove(0).0;
    Ok((cmd, words))
}
