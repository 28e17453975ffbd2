//! The symmetries of a square grid, as maps on cells.
//!
//! Numbering, shared by every variant: 0 identity, 1 quarter turn clockwise, 2 half turn,
//! 3 quarter turn anticlockwise, 4 left-right mirror, 5 top-bottom mirror, 6 transpose (main
//! diagonal), 7 anti-transpose. A variant with fewer symmetries uses a subset.

/// Number of symmetries of the square.
pub const SQUARE_SYMMETRIES: usize = 8;

/// Where `(row, col)` of an `n` x `n` grid goes under symmetry `sym`.
pub const fn map_square(sym: usize, row: usize, col: usize, n: usize) -> (usize, usize) {
    let last = n - 1;
    match sym {
        0 => (row, col),
        1 => (col, last - row),
        2 => (last - row, last - col),
        3 => (last - col, row),
        4 => (row, last - col),
        5 => (last - row, col),
        6 => (col, row),
        _ => (last - col, last - row),
    }
}

/// For each of the 8 symmetries, where every cell of an `n` x `n` grid goes
/// (`CELLS` must be `n * n`). Evaluate it in a `const` to get a lookup table.
pub const fn square_cell_maps<const CELLS: usize>(n: usize) -> [[u16; CELLS]; SQUARE_SYMMETRIES] {
    assert!(n * n == CELLS);
    let mut maps = [[0u16; CELLS]; SQUARE_SYMMETRIES];
    let mut sym = 0;
    while sym < SQUARE_SYMMETRIES {
        let mut cell = 0;
        while cell < CELLS {
            let (row, col) = map_square(sym, cell / n, cell % n, n);
            maps[sym][cell] = (row * n + col) as u16;
            cell += 1;
        }
        sym += 1;
    }
    maps
}

/// Moves every set bit `i` of `bits` to bit `map[i]`: a bitboard under a cell map.
pub fn map_bits(bits: u128, map: &[u16]) -> u128 {
    let mut out = 0u128;
    let mut rest = bits;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1u128 << map[i];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_map_is_a_permutation_with_an_inverse_in_the_group() {
        let maps = square_cell_maps::<16>(4);
        for map in &maps {
            let mut seen = [false; 16];
            for &target in map {
                seen[target as usize] = true;
            }
            assert!(seen.iter().all(|&s| s));
            let has_inverse = maps
                .iter()
                .any(|other| (0..16).all(|cell| other[map[cell] as usize] as usize == cell));
            assert!(has_inverse);
        }
    }

    #[test]
    fn quarter_turn_is_clockwise() {
        // The top-left corner goes to the top-right corner.
        assert_eq!(map_square(1, 0, 0, 3), (0, 2));
        assert_eq!(map_bits(0b1, &square_cell_maps::<9>(3)[1]), 0b100);
    }
}
