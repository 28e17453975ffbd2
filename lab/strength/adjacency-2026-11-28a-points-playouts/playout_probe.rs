use oxo_rules::adjacency::Adjacency;
use oxo_rules::{Game, Player};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use std::time::Instant;

fn greedy_cell(g: &Adjacency, rng: &mut SmallRng) -> u16 {
    let mut empty = g.empty();
    let mut best = i32::MIN;
    let mut n = 0u32;
    let mut pick = 0u16;
    while empty != 0 {
        let c = empty.trailing_zeros() as usize;
        empty &= empty - 1;
        let p = g.placement_points(c);
        if p > best { best = p; n = 1; pick = c as u16; }
        else if p == best { n += 1; if rng.random_range(0..n) == 0 { pick = c as u16; } }
    }
    pick
}

fn playout(mut g: Adjacency, p: f64, rng: &mut SmallRng) -> Adjacency {
    while !g.is_over() {
        let a = if p > 0.0 && rng.random_bool(p) { greedy_cell(&g, rng) } else { g.random_action(rng) };
        g.play(a);
    }
    g
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let mut games: Vec<(Vec<u16>, [i32; 2])> = vec![];
    for f in &files {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(f).unwrap()) else { continue };
        if v["variant"] != "adjacency" { continue; }
        let Some(gs) = v["games"].as_array() else { continue }; for g in gs {
            let Some(ms) = g["moves"].as_array() else { continue };
            let moves: Vec<u16> = ms.iter().map(|m| Adjacency::parse_action(m.as_str().unwrap()).unwrap()).collect();
            let s = &g["scores"];
            games.push((moves, [s[0].as_i64().unwrap() as i32, s[1].as_i64().unwrap() as i32]));
        }
    }
    eprintln!("{} games", games.len());
    let ps = [0.0, 0.25, 0.5, 0.75, 0.9, 1.0];
    let plies = [10usize, 30, 50, 70, 90, 105];
    let n = 16;
    let mut rng = SmallRng::seed_from_u64(1);
    // err[policy][ply]
    let mut err = vec![vec![(0.0f64, 0usize); plies.len()]; ps.len()];
    let mut time = vec![0.0f64; ps.len()];
    for (moves, scores) in &games {
        for (pi, &ply) in plies.iter().enumerate() {
            if ply >= moves.len() { continue; }
            let mut g = Adjacency::new();
            for &m in &moves[..ply] { g.play(m); }
            let mover = g.to_move();
            let (me, them) = (scores[mover.index()], scores[1 - mover.index()]);
            let actual = (me - them).signum() as f64;
            for (k, &p) in ps.iter().enumerate() {
                let t = Instant::now();
                let mut tot = 0.0;
                for _ in 0..n {
                    let e = playout(g, p, &mut rng);
                    tot += e.outcome().unwrap().value_for(mover) as f64;
                }
                time[k] += t.elapsed().as_secs_f64();
                let est = tot / n as f64;
                err[k][pi].0 += (est - actual).powi(2);
                err[k][pi].1 += 1;
            }
        }
    }
    let _ = Player::X;
    print!("policy   ");
    for p in plies { print!(" ply{p:>4}"); }
    println!("   all    us/playout");
    for (k, &p) in ps.iter().enumerate() {
        print!("greedy{p:.2}");
        let (mut s, mut c) = (0.0, 0);
        for e in &err[k] { print!(" {:7.3}", e.0 / e.1 as f64); s += e.0; c += e.1; }
        let total_playouts: usize = c * n;
        println!(" {:7.3} {:8.2}", s / c as f64, time[k] * 1e6 / total_playouts as f64);
    }
}
