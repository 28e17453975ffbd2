//! Cell names (`A1` is the top-left cell, columns are letters, rows are numbers from the top),
//! a plain-text grid renderer shared by the variants' `Display` implementations, and the
//! line directions of a grid for bitboard scans.

use crate::ParseMoveError;

/// The name of cell `index` on a grid `width` cells wide, e.g. `C5`.
pub fn format_cell(index: usize, width: usize) -> String {
    let col = (b'A' + (index % width) as u8) as char;
    format!("{col}{}", index / width + 1)
}

/// Reads a cell name (case-insensitive, surrounding spaces ignored) on a `width` x `height`
/// grid and returns its index.
pub fn parse_cell(text: &str, width: usize, height: usize) -> Result<usize, ParseMoveError> {
    let error = || ParseMoveError {
        text: text.to_string(),
        expected: format!("a cell A1..{}", format_cell(width * height - 1, width)),
    };
    let trimmed = text.trim();
    let mut chars = trimmed.chars();
    let letter = chars.next().ok_or_else(error)?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() {
        return Err(error());
    }
    let col = (letter as u8 - b'A') as usize;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error());
    }
    let row: usize = digits.parse().map_err(|_| error())?;
    if col >= width || row == 0 || row > height {
        return Err(error());
    }
    Ok((row - 1) * width + col)
}

/// The four directions a line can take on a `width` x `height` grid of at most 64 cells (bit
/// `row * width + col` of a `u64`), as `(shift, has_next)`: the cell after cell `i` is
/// `i + shift`, and `has_next` holds the cells that have one in that direction on the grid
/// (right, down, down-right, down-left). Shifting a mask of cells by `shift` after masking it
/// with `has_next` steps every cell along the line without wrapping round an edge.
pub const fn line_directions(width: usize, height: usize) -> [(u32, u64); 4] {
    assert!(width * height <= 64, "a grid of at most 64 cells");
    let (mut right, mut down, mut down_right, mut down_left) = (0u64, 0u64, 0u64, 0u64);
    let mut cell = 0;
    while cell < width * height {
        let (row, col) = (cell / width, cell % width);
        let bit = 1u64 << cell;
        if col + 1 < width {
            right |= bit;
        }
        if row + 1 < height {
            down |= bit;
            if col + 1 < width {
                down_right |= bit;
            }
            if col > 0 {
                down_left |= bit;
            }
        }
        cell += 1;
    }
    let width = width as u32;
    [
        (1, right),
        (width, down),
        (width + 1, down_right),
        (width - 1, down_left),
    ]
}

/// Renders a grid as text: column letters on top, row numbers on the left, one character per
/// cell from `cell`. With `block > 0`, a separator is drawn between every `block` columns and
/// rows (the small boards of the nested variants).
pub fn render_grid(
    width: usize,
    height: usize,
    block: usize,
    cell: impl Fn(usize) -> char,
) -> String {
    let separated = |i: usize| block > 0 && i > 0 && i % block == 0;
    let mut header = String::from("    ");
    let mut rule = String::from("    ");
    for col in 0..width {
        if separated(col) {
            header.push_str("| ");
            rule.push_str("+-");
        }
        header.push((b'A' + col as u8) as char);
        header.push(' ');
        rule.push_str("--");
    }
    let mut out = format!("{}\n", header.trim_end());
    for row in 0..height {
        if separated(row) {
            out.push_str(rule.trim_end());
            out.push('\n');
        }
        let mut line = format!("{:>3} ", row + 1);
        for col in 0..width {
            if separated(col) {
                line.push_str("| ");
            }
            line.push(cell(row * width + col));
            line.push(' ');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Brackets one cell, `(X)`, in text that contains a grid drawn by [`render_grid`] with the
/// same `width` and `block`: how front ends mark the last move. Text without such a grid is
/// returned unchanged.
pub fn mark_cell(text: &str, width: usize, block: usize, cell: usize) -> String {
    let header = render_grid(width, 1, block, |_| '.');
    let header = header.lines().next().unwrap_or_default();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let Some(top) = lines.iter().position(|l| l == header) else {
        return text.to_string();
    };
    let separators = |i: usize| i.checked_div(block).unwrap_or(0);
    let (row, col) = (cell / width, cell % width);
    let Some(line) = lines.get_mut(top + 1 + row + separators(row)) else {
        return text.to_string();
    };
    let at = 4 + 2 * col + 2 * separators(col);
    let mut chars: Vec<char> = line.chars().collect();
    if at >= chars.len() || chars[at - 1] != ' ' {
        return text.to_string();
    }
    chars[at - 1] = '(';
    match chars.get_mut(at + 1) {
        Some(after) => *after = ')',
        None => chars.push(')'),
    }
    *line = chars.into_iter().collect();
    let mut out = lines.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a 3x2 grid (cells 0 1 2 / 3 4 5): only cells left of the last column go right, only
    /// the top row goes down, and the diagonals need both.
    #[test]
    fn line_directions_stop_at_the_edges() {
        assert_eq!(
            line_directions(3, 2),
            [
                (1, 0b011_011),
                (3, 0b000_111),
                (4, 0b000_011),
                (2, 0b000_110)
            ]
        );
    }

    #[test]
    fn cells_round_trip_on_every_grid_size() {
        for (width, height) in [(3, 3), (6, 6), (9, 9), (11, 11), (16, 16)] {
            for index in 0..width * height {
                let name = format_cell(index, width);
                assert_eq!(parse_cell(&name, width, height), Ok(index));
                assert_eq!(parse_cell(&name.to_lowercase(), width, height), Ok(index));
            }
        }
    }

    #[test]
    fn names_follow_the_rulebook() {
        assert_eq!(format_cell(0, 9), "A1");
        assert_eq!(parse_cell("c5", 9, 9), Ok(4 * 9 + 2));
        assert_eq!(format_cell(255, 16), "P16");
    }

    #[test]
    fn marks_a_cell_in_a_blocked_grid() {
        let grid = render_grid(9, 9, 3, |cell| if cell == 40 { 'X' } else { '.' });
        let marked = mark_cell(&format!("Ultimate\n{grid}"), 9, 3, 40);
        let line = marked.lines().nth(7).unwrap();
        assert_eq!(line, "  5 . . . | .(X). | . . .");
        let corner = mark_cell(&grid, 9, 3, 80);
        assert!(corner.lines().last().unwrap().ends_with("(.)"));
        assert_eq!(mark_cell("no grid", 9, 3, 0), "no grid");
    }

    #[test]
    fn rejects_garbage() {
        for bad in [
            "", "A", "1", "A0", "J1", "A10", "AA1", "A1x", "é1", "A+1", "A001",
        ] {
            assert!(parse_cell(bad, 9, 9).is_err(), "{bad} parsed");
        }
    }
}
