//! [`PlaySearch`]: how a `net:` agent searches each move (scheme, its parameters and the
//! budget in simulations or milliseconds), read from the spec's search parameters.

use oxo_agents::AgentSpec;
use oxo_search::{GumbelConfig, PuctConfig, Scheme, SearchConfig};

use crate::SchemeName;

/// The search parameters a `net:` spec takes (besides the model, engine and value ones).
pub const SEARCH_PARAMS: &[&str] = &[
    "sims",
    "ms",
    "search",
    "leaves",
    "c_puct",
    "fpu",
    "c_scale",
    "rescale",
    "considered",
    "reuse",
    "solve",
];

/// The search `oxo export` records in `model.json` as the one a model plays best with, the
/// default agent of `oxo play` and `oxo gtp` (chosen in docs/experiments.md, section 'Search
/// at play time').
pub const DEFAULT_PLAY_SEARCH: &str = "search=puct,ms=400";

/// Checks a `net:` spec's search parameters written alone (`search=puct,ms=400`), as
/// `oxo export --search` takes them: an error in words for another parameter or a bad value.
pub fn check_search_params(text: &str) -> Result<PlaySearch, String> {
    PlaySearch::from_spec(&crate::spec_of_params(text, "search", SEARCH_PARAMS)?)
}

/// Simulations per move when a spec names neither `sims` nor `ms`.
pub const DEFAULT_SIMS: u32 = 64;

/// The most simulations a timed search (`ms` without `sims`) may run in one move: far more
/// than any net evaluates in a few seconds on a CPU, and a bound on the tree's memory.
pub const MAX_TIMED_SIMS: u32 = 200_000;

/// Simulations per second a timed Gumbel search assumes before it has measured its own.
pub const INITIAL_SIMULATION_RATE: f64 = 1000.0;

/// The fewest simulations a timed Gumbel search is given.
pub const MIN_TIMED_SIMS: u32 = 8;

/// What ends one move's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of simulations.
    Simulations(u32),
    /// A time per move in milliseconds, with at most `cap` simulations.
    Millis { ms: u32, cap: u32 },
}

/// How a `net:` agent searches: deterministic play (no root noise) by `scheme`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaySearch {
    /// Gumbel (sequential halving at the root) or PUCT.
    pub scheme: SchemeName,
    /// What ends a move's search.
    pub budget: Budget,
    /// Leaves per network call (virtual visits spread them).
    pub leaves: u32,
    /// PUCT's exploration weight.
    pub c_puct: f32,
    /// PUCT's first-play urgency reduction: an unvisited move's value is its parent's mean
    /// value minus this ([`PuctConfig::fpu_reduction`]).
    pub fpu: f32,
    /// Gumbel's `c_scale` (mctx's `value_scale`).
    pub c_scale: f32,
    /// Whether Gumbel rescales completed Q-values to `[0, 1]` (mctx's `rescale_values`).
    pub rescale: bool,
    /// Root moves Gumbel's sequential halving considers; 0 considers every legal move.
    pub considered: u32,
    /// Whether a PUCT search keeps the subtree of the moves played since its last search
    /// ([`SearchConfig::reuse_tree`]; Gumbel never does).
    pub reuse: bool,
    /// Whether the search proves won, drawn and lost positions and plays by the proof
    /// ([`SearchConfig::solve`]).
    pub solve: bool,
}

impl PlaySearch {
    /// `scheme` with `sims` simulations a move, one leaf per network call and the scheme's
    /// default parameters (as gating plays).
    pub fn new(scheme: SchemeName, sims: u32) -> PlaySearch {
        let gumbel = GumbelConfig::default();
        PlaySearch {
            scheme,
            budget: Budget::Simulations(sims.max(1)),
            leaves: 1,
            c_puct: PuctConfig::default().c_puct,
            fpu: PuctConfig::default().fpu_reduction,
            c_scale: gumbel.c_scale,
            rescale: gumbel.rescale_values,
            considered: gumbel.max_considered_actions,
            reuse: true,
            solve: false,
        }
    }

    /// The same search with `leaves` leaves per network call.
    pub fn with_leaves(self, leaves: u32) -> PlaySearch {
        PlaySearch {
            leaves: leaves.max(1),
            ..self
        }
    }

    /// Reads the search parameters of a `net:` spec over the search its model records
    /// (`play.search` of its `model.json`, e.g. `search=puct,ms=400`): each parameter the
    /// spec leaves out comes from the record, except that a spec naming a budget (`sims` or
    /// `ms`) takes neither of the record's. So `net:ms=500` is the model's own search at
    /// 500 ms a move and `net:sims=800` its own scheme at 800 simulations. `recorded` is a
    /// list of search parameters as [`check_search_params`] takes them (checked here too).
    pub fn from_spec_over(spec: &AgentSpec, recorded: &str) -> Result<PlaySearch, String> {
        let recorded = crate::spec_of_params(recorded, "search", SEARCH_PARAMS)?;
        const BUDGET: [&str; 2] = ["sims", "ms"];
        let names_budget = BUDGET.iter().any(|key| spec.params.contains_key(*key));
        let mut params: std::collections::BTreeMap<String, String> = recorded
            .params
            .into_iter()
            .filter(|(key, _)| !(names_budget && BUDGET.contains(&key.as_str())))
            .collect();
        params.extend(
            spec.params
                .iter()
                .filter(|(key, _)| SEARCH_PARAMS.contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), value.clone())),
        );
        PlaySearch::from_spec(&AgentSpec {
            kind: spec.kind.clone(),
            params,
            text: spec.text.clone(),
        })
    }

    /// The setting in full, as a `net:` spec's search parameters that read back to it:
    /// the scheme, the budget and every parameter of that scheme.
    pub fn spec_params(&self) -> String {
        let budget = match self.budget {
            Budget::Simulations(sims) => format!("sims={sims}"),
            Budget::Millis { ms, cap } if cap == MAX_TIMED_SIMS => format!("ms={ms}"),
            Budget::Millis { ms, cap } => format!("ms={ms},sims={cap}"),
        };
        let scheme = match self.scheme {
            SchemeName::Puct => format!(
                "search=puct,c_puct={},fpu={},reuse={}",
                self.c_puct, self.fpu, self.reuse as u8
            ),
            SchemeName::Gumbel => format!(
                "search=gumbel,c_scale={},rescale={},considered={}",
                self.c_scale, self.rescale as u8, self.considered
            ),
        };
        format!(
            "{scheme},{budget},leaves={},solve={}",
            self.leaves, self.solve as u8
        )
    }

    /// Reads the search parameters of a `net:` spec: `sims=N` (default 64, or the cap of a
    /// timed search), `ms=M` (a time per move), `search=gumbel|puct`, `leaves=L` (default
    /// 4), `c_puct=C`, `fpu=F` (0 to 2), `c_scale=C`, `rescale=0|1`, `considered=K` (0:
    /// every legal move), `reuse=0|1` (default 1: PUCT keeps the subtree of the moves
    /// played), `solve=0|1` (default 0: 1 proves positions and plays by the proof).
    /// An error in words naming the accepted values.
    pub fn from_spec(spec: &AgentSpec) -> Result<PlaySearch, String> {
        let defaults = PlaySearch::new(SchemeName::Gumbel, DEFAULT_SIMS);
        // AgentSpec::bounded_param checks each number; the error names the net agent.
        let refused = |name: &str, expected: &str| {
            format!(
                "agent 'net': {name}={} is not {expected}",
                spec.params[name]
            )
        };
        let whole = |name: &str, low: u32, high: u32, expected: &'static str| match spec
            .params
            .contains_key(name)
        {
            false => Ok(None),
            true => spec
                .bounded_param(name, 0, low, high, expected)
                .map(Some)
                .map_err(|_| refused(name, expected)),
        };
        let positive = |name: &str, default: f32| {
            let expected = if name == "c_scale" {
                "a positive finite number, e.g. 0.1"
            } else {
                "a positive finite number, e.g. 1.25"
            };
            spec.bounded_param(name, default, f32::MIN_POSITIVE, 1e6, expected)
                .map_err(|_| refused(name, expected))
        };
        let fpu_expected = "a number in 0..=2, e.g. 0.2";
        let scheme = spec
            .param("search", SchemeName::Gumbel, "gumbel or puct")
            .map_err(|e| e.to_string())?;
        let sims = whole("sims", 1, MAX_TIMED_SIMS, "a whole number in 1..=200000")?;
        let ms = spec
            .time_per_move()
            .map_err(|_| refused("ms", "a whole number in 1..=600000"))?;
        let budget = match ms {
            Some(time) => Budget::Millis {
                ms: time.as_millis() as u32,
                cap: sims.unwrap_or(MAX_TIMED_SIMS),
            },
            None => Budget::Simulations(sims.unwrap_or(DEFAULT_SIMS)),
        };
        let flag = |name: &str, default: bool| {
            Ok::<_, String>(match whole(name, 0, 1, "a whole number in 0..=1")? {
                None => default,
                Some(value) => value == 1,
            })
        };
        Ok(PlaySearch {
            scheme,
            budget,
            leaves: whole("leaves", 1, 256, "a whole number in 1..=256")?.unwrap_or(4),
            c_puct: positive("c_puct", defaults.c_puct)?,
            fpu: spec
                .bounded_param("fpu", defaults.fpu, 0.0, 2.0, fpu_expected)
                .map_err(|_| refused("fpu", fpu_expected))?,
            c_scale: positive("c_scale", defaults.c_scale)?,
            rescale: flag("rescale", defaults.rescale)?,
            considered: whole("considered", 0, 10_000, "a whole number in 0..=10000")?
                .unwrap_or(defaults.considered),
            reuse: flag("reuse", defaults.reuse)?,
            solve: flag("solve", defaults.solve)?,
        })
    }

    /// The simulations a search of this budget is built for: the fixed number, or a timed
    /// search's cap.
    pub fn max_simulations(&self) -> u32 {
        match self.budget {
            Budget::Simulations(sims) => sims,
            Budget::Millis { cap, .. } => cap,
        }
    }

    /// The simulations a timed Gumbel search is given: what `simulation_rate` (simulations
    /// a second, measured on the last searches) says fit in the time, at least
    /// [`MIN_TIMED_SIMS`] and at most the cap. Sequential halving needs its budget up front;
    /// the deadline still ends a search that runs late. `None` for PUCT, which simply runs
    /// to the deadline, and for a budget of simulations.
    pub fn timed_gumbel_simulations(&self, simulation_rate: f64) -> Option<u32> {
        let Budget::Millis { ms, cap } = self.budget else {
            return None;
        };
        if self.scheme != SchemeName::Gumbel {
            return None;
        }
        let fitting = simulation_rate * f64::from(ms) / 1000.0;
        Some((fitting as u32).clamp(MIN_TIMED_SIMS.min(cap), cap))
    }

    /// The search configuration with `simulations` a move.
    pub fn config(&self, simulations: u32) -> SearchConfig {
        let scheme = match self.scheme {
            SchemeName::Gumbel => Scheme::Gumbel(GumbelConfig {
                gumbel_scale: 0.0,
                c_scale: self.c_scale,
                rescale_values: self.rescale,
                max_considered_actions: match self.considered {
                    0 => u32::MAX,
                    k => k,
                },
                ..GumbelConfig::default()
            }),
            SchemeName::Puct => Scheme::Puct(PuctConfig {
                dirichlet_fraction: 0.0,
                temperature: 0.0,
                c_puct: self.c_puct,
                fpu_reduction: self.fpu,
                ..PuctConfig::default()
            }),
        };
        SearchConfig {
            simulations: simulations.max(1),
            leaves_per_tree: self.leaves,
            reuse_tree: self.reuse,
            solve: self.solve,
            scheme,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<PlaySearch, String> {
        PlaySearch::from_spec(&text.parse().expect("a well-formed spec"))
    }

    /// A parameter the spec leaves out is the recorded search's; a budget the spec names
    /// replaces the recorded budget whole (so `sims=800` is not capped by a recorded `ms`).
    #[test]
    fn a_spec_leaves_out_what_the_model_records() {
        let over = |text: &str| {
            PlaySearch::from_spec_over(&text.parse().unwrap(), "search=puct,ms=400").unwrap()
        };
        let timed = |ms| Budget::Millis {
            ms,
            cap: MAX_TIMED_SIMS,
        };
        let cases = [
            ("net", SchemeName::Puct, timed(400)),
            ("net:ms=500", SchemeName::Puct, timed(500)),
            ("net:sims=800", SchemeName::Puct, Budget::Simulations(800)),
            ("net:search=gumbel", SchemeName::Gumbel, timed(400)),
            (
                "net:ms=500,sims=900",
                SchemeName::Puct,
                Budget::Millis { ms: 500, cap: 900 },
            ),
        ];
        for (spec, scheme, budget) in cases {
            let search = over(spec);
            assert_eq!((search.scheme, search.budget), (scheme, budget), "{spec}");
        }
        assert_eq!(over("net:c_puct=2").c_puct, 2.0);
        assert_eq!(
            over("net:engine=burn,score=1"),
            over("net"),
            "not search parameters"
        );
        let bad = PlaySearch::from_spec_over(&"net".parse().unwrap(), "search=puct,depth=3");
        assert!(bad.unwrap_err().contains("depth"));
    }

    /// [`PlaySearch::spec_params`] names the whole setting: it reads back to the same search.
    #[test]
    fn the_full_setting_reads_back() {
        for spec in [
            "net",
            "net:search=puct,ms=500",
            "net:search=puct,ms=500,sims=900,c_puct=2,fpu=0.25,reuse=0,leaves=8,solve=1",
            "net:search=gumbel,sims=300,c_scale=1,rescale=0,considered=4",
        ] {
            let search = read(spec).unwrap();
            let full = search.spec_params();
            assert_eq!(
                read(&format!("net:{full}")).unwrap(),
                search,
                "{spec}: {full}"
            );
        }
    }

    /// Every parameter reaches the search; `ms` makes a timed budget capped by `sims`.
    #[test]
    fn parameters_are_read() {
        let search = read(
            "net:ms=250,sims=900,search=puct,leaves=2,c_puct=2,fpu=0.2,c_scale=1,rescale=0,considered=0,reuse=0",
        )
        .unwrap();
        assert!(!search.reuse && !search.config(10).reuse_tree);
        assert!(!search.solve && !search.config(10).solve);
        assert!(read("net:solve=1").unwrap().config(10).solve);
        assert!(read("net:search=puct").unwrap().config(10).reuse_tree);
        assert_eq!(search.budget, Budget::Millis { ms: 250, cap: 900 });
        assert_eq!(search.scheme, SchemeName::Puct);
        assert_eq!(
            (search.leaves, search.c_puct, search.c_scale),
            (2, 2.0, 1.0)
        );
        assert!(!search.rescale);
        assert_eq!(search.considered, 0);
        let Scheme::Puct(puct) = search.config(10).scheme else {
            panic!("puct")
        };
        assert_eq!(
            (puct.c_puct, puct.temperature, puct.dirichlet_fraction),
            (2.0, 0.0, 0.0)
        );
        assert_eq!(puct.fpu_reduction, 0.2);
        assert_eq!(read("net:search=puct").unwrap().fpu, 0.0);
        let gumbel = PlaySearch {
            scheme: SchemeName::Gumbel,
            ..search
        };
        let Scheme::Gumbel(config) = gumbel.config(10).scheme else {
            panic!("gumbel")
        };
        assert_eq!(config.max_considered_actions, u32::MAX);
        assert!(!config.rescale_values);
        assert_eq!(
            read("net:ms=100").unwrap().max_simulations(),
            MAX_TIMED_SIMS
        );
        assert_eq!(
            read("net:").unwrap().budget,
            Budget::Simulations(DEFAULT_SIMS)
        );
    }

    /// `oxo export --search` takes search parameters only; the recorded ones are valid.
    #[test]
    fn search_params_alone_are_checked() {
        check_search_params(DEFAULT_PLAY_SEARCH).expect(DEFAULT_PLAY_SEARCH);
        let err = check_search_params("ms=400,path=x.bpk").unwrap_err();
        assert!(err.contains("'path' is not a search parameter"), "{err}");
        let err = check_search_params("ms=-4").unwrap_err();
        assert!(err.contains("ms=-4 is not a whole number"), "{err}");
    }

    /// Out-of-range and malformed numbers are refused with the accepted range.
    #[test]
    fn bad_numbers_are_refused_in_words() {
        for (spec, expected) in [
            ("net:ms=0", "ms=0 is not a whole number in 1..=600000"),
            ("net:ms=nan", "ms=nan is not a whole number"),
            ("net:sims=0", "sims=0 is not a whole number in 1..=200000"),
            ("net:sims=1.5", "sims=1.5 is not a whole number"),
            ("net:leaves=0", "leaves=0 is not a whole number in 1..=256"),
            ("net:c_puct=-1", "c_puct=-1 is not a positive finite number"),
            ("net:fpu=-0.1", "fpu=-0.1 is not a number in 0..=2"),
            ("net:fpu=3", "fpu=3 is not a number in 0..=2"),
            (
                "net:c_scale=inf",
                "c_scale=inf is not a positive finite number, e.g. 0.1",
            ),
            ("net:rescale=2", "rescale=2 is not a whole number in 0..=1"),
            ("net:reuse=yes", "reuse=yes is not a whole number in 0..=1"),
            ("net:solve=2", "solve=2 is not a whole number in 0..=1"),
            ("net:search=minimax", "gumbel or puct"),
        ] {
            let err = read(spec).expect_err(spec);
            assert!(err.contains(expected), "{spec}: {err}");
        }
    }
}
