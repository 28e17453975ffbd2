//! The text board (`Display` of a position, what `oxo gtp`'s `showboard` prints) read back
//! cell by cell, so that a page can draw every variant from the rules' own picture of it.

/// The character on each cell of `board`'s grid, `width * height` of them in cell order. The
/// header line of column letters (`A B C ...`, with `|` between small boards) gives each
/// column's position in the line; the grid is the lines that start with a row number (1 to
/// `height`), read at those positions. A closed small board shows a space; a cell the text
/// does not show is `?`.
pub fn grid_glyphs(board: &str, width: usize, height: usize) -> Vec<char> {
    let mut glyphs = vec!['?'; width * height];
    let Some(columns) = board.lines().find_map(|line| column_positions(line, width)) else {
        return glyphs;
    };
    let mut rows_seen = 0;
    for line in board.lines() {
        let Some(row) = line
            .split_whitespace()
            .next()
            .and_then(|t| t.parse::<usize>().ok())
        else {
            continue;
        };
        if row != rows_seen + 1 || row > height {
            continue;
        }
        rows_seen = row;
        let chars: Vec<char> = line.chars().collect();
        for (col, &at) in columns.iter().enumerate() {
            glyphs[(row - 1) * width + col] = chars.get(at).copied().unwrap_or(' ');
        }
    }
    glyphs
}

/// Where each of the `width` column letters stands in `line`, if it is the header: exactly
/// the letters `A`, `B`, ... in order, besides spaces and `|`.
fn column_positions(line: &str, width: usize) -> Option<Vec<usize>> {
    let mut positions = Vec::with_capacity(width);
    for (at, c) in line.chars().enumerate() {
        match c {
            ' ' | '|' => {}
            c if c as usize == 'A' as usize + positions.len() => positions.push(at),
            _ => return None,
        }
    }
    (positions.len() == width).then_some(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A nested board's separators are skipped, a closed board's empty cells are spaces, and
    /// the notes below the grid are not read.
    #[test]
    fn reads_a_nested_grid() {
        let board = "    A B | C D\n  1 X . |    \n  2 . . |   O\n    ----+----\n  3 . . | . .\n  4 . . | . T\nBig board:\n    . .\n";
        let glyphs: String = grid_glyphs(board, 4, 4).into_iter().collect();
        assert_eq!(glyphs, "X.  .. O.......T");
    }
}
