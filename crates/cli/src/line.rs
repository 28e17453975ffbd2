//! Reading a person's or a controller's lines with a bound on their length, and cleaning them
//! for display: what the GTP engine and `oxo play` read goes through here.

use std::io::{self, BufRead};

/// The longest line read: far above any command or move, far below a memory problem.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What [`read_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The end of the input.
    End,
    /// A line (without its newline), invalid UTF-8 replaced and control characters (terminal
    /// escape codes among them) made spaces, trimmed.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`]: read to its end and dropped.
    TooLong,
}

/// Reads one line of at most [`MAX_LINE_BYTES`] bytes from `input`, never holding more than
/// that in memory however long the line is.
pub fn read_line(input: &mut dyn BufRead) -> io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(match (line.is_empty(), too_long) {
                (true, false) => Line::End,
                (_, true) => Line::TooLong,
                (false, false) => Line::Text(clean(&line)),
            });
        }
        let (chunk, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(newline) => (&available[..newline], Some(newline + 1)),
            None => (available, None),
        };
        if line.len() + chunk.len() > MAX_LINE_BYTES {
            too_long = true;
            line.clear();
        } else if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = ends.unwrap_or(available.len());
        input.consume(used);
        if ends.is_some() {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Text(clean(&line))
            });
        }
    }
}

/// `raw` as text: invalid UTF-8 replaced, control characters made spaces, trimmed.
pub fn clean(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    text.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let mut input = io::BufReader::with_capacity(16, bytes);
        let mut out = Vec::new();
        loop {
            let line = read_line(&mut input).unwrap();
            if line == Line::End {
                return out;
            }
            out.push(line);
        }
    }

    /// Lines are cleaned; an overlong one (with or without a newline) is dropped whole and
    /// the next line reads normally.
    #[test]
    fn lines_are_cleaned_and_bounded() {
        let mut input = b"play \x1b[31mA1\xff\r\n".to_vec();
        input.extend(vec![b'x'; MAX_LINE_BYTES + 1]);
        input.extend_from_slice(b"\nname\n");
        input.extend(vec![b'y'; MAX_LINE_BYTES * 3]);
        assert_eq!(
            lines(&input),
            [
                Line::Text("play  [31mA1\u{fffd}".into()),
                Line::TooLong,
                Line::Text("name".into()),
                Line::TooLong,
            ]
        );
        assert_eq!(lines(b"last"), [Line::Text("last".into())]);
    }
}
