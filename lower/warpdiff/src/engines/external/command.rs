//! The `PROGRAM` of `cmd:PROGRAM` as an argument vector: split into words
//! the way a POSIX shell splits a simple command, without running a shell.
//!
//! Blanks (spaces, tabs) separate words; `'...'` keeps everything inside as
//! it is; `"..."` keeps everything inside except that `\"` and `\\` are a
//! quote and a backslash; outside quotes a backslash keeps the next
//! character as it is. Nothing is expanded: no `$VAR`, no `~`, no globs, no
//! redirections. Whoever needs those writes `cmd:sh -c '...'`.
//!
//! Running the program directly (no `sh` in between) keeps its process id
//! the one warpdiff reports and kills.

/// The words of `program`, or why it has none or cannot be split.
pub fn split(program: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word has started (`''` is an empty word).
    let mut started = false;
    let mut chars = program.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '\'' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("`{program}`: a ' is not closed")),
                    }
                }
            }
            '"' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("`{program}`: a \" is not closed")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("`{program}`: a \" is not closed")),
                    }
                }
            }
            '\\' => {
                started = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("`{program}`: it ends with a lone \\")),
                }
            }
            '\n' | '\r' => return Err(format!("`{program}`: a line break in the command")),
            c => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        words.push(word);
    }
    if words.is_empty() {
        return Err("cmd: needs a program to run, as in `cmd:python3 client.py`".to_string());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn words_quotes_and_escapes() {
        assert_eq!(
            split("python3  examples/engines/jit_client.py").unwrap(),
            ["python3", "examples/engines/jit_client.py"]
        );
        assert_eq!(
            split(r#"sim --name 'a b' "c \"d\" \e" f\ g ''"#).unwrap(),
            ["sim", "--name", "a b", r#"c "d" \e"#, "f g", ""]
        );
        assert_eq!(split("a,b").unwrap(), ["a,b"]);
    }

    #[test]
    fn what_is_refused() {
        assert!(split("   ").unwrap_err().contains("needs a program"));
        assert!(split("a 'b").unwrap_err().contains("not closed"));
        assert!(split("a \"b").unwrap_err().contains("not closed"));
        assert!(split("a \\").unwrap_err().contains("lone"));
    }
}
