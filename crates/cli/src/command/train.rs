//! `oxo train`: self-play training of a run (a directory, or a store URL that many
//! processes share), its roles at once in this process or one of them; the same command
//! resumes it where it stopped.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Duration;

use oxo_train::roles::{ConfigChoice, Role, RoleOptions, StoreRun};
use oxo_variants::{Variant, with_variant};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use super::args::{
    DeviceArg, parse_minutes, parse_role, parse_threads, parse_variant, variant_help,
};
use super::stderr_log;

#[derive(clap::Args)]
pub struct TrainArgs {
    #[arg(long, value_parser = parse_variant, help = variant_help())]
    variant: Variant,
    /// The run configuration (default: the run's own `config.toml` when there is a run,
    /// so the same command without --config resumes it as it was; else the
    /// variant's built-in one, the repository's configs/VARIANT.toml as this oxo was built;
    /// see --print-config).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Print the configuration this command would use (with its comments when it is the
    /// built-in one) and exit without training.
    #[arg(long)]
    print_config: bool,
    /// The run: a directory (default: runs/VARIANT), or a store URL (`s3://BUCKET/PREFIX`,
    /// `gs://`, `az://`, `file:///DIR`) that many processes share; credentials and
    /// endpoint from the environment (`AWS_ENDPOINT`, `AWS_ACCESS_KEY_ID`,
    /// `AWS_ALLOW_HTTP`, ...).
    #[arg(long)]
    run: Option<String>,
    /// Run one role of the run: `selfplay` (any number of workers), `trainer` (exactly
    /// one), `gate` (one), or `all` (the three at once in this process: the default).
    #[arg(long, value_parser = parse_role)]
    role: Option<Role>,
    /// Start this trainer although another one wrote to the store in the last two
    /// minutes: that one was killed and this one replaces it.
    #[arg(long)]
    takeover: bool,
    /// Where this process keeps the models it fetches, and for a URL run its log.txt,
    /// metrics.jsonl and TensorBoard events (default: a folder of the system's temporary
    /// directory).
    #[arg(long)]
    cache: Option<PathBuf>,
    /// Cores this process uses, 1 to 1024 (default: the config's selfplay.workers, 0 there
    /// meaning every core); with every role at once, shared between the trainer and
    /// self-play.
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Stop after this many minutes (above 0, at most a year), once the trainer has ended
    /// the generation it is training.
    #[arg(long, allow_negative_numbers = true, value_parser = parse_minutes)]
    minutes: Option<f64>,
    /// Start a new run from this model's weights (a model file or checkpoint of the
    /// config's variant and net size) instead of a random net; read only while the run has
    /// no net yet, so the same command resumes.
    #[arg(long, value_name = "MODEL")]
    init: Option<PathBuf>,
    #[command(flatten)]
    device: DeviceArg,
}

impl TrainArgs {
    pub fn run(self) -> Result<(), String> {
        let variant = self.variant;
        let location = self.run.unwrap_or_else(|| format!("runs/{variant}"));
        let time_limit = self.minutes.map(|m| Duration::from_secs_f64(m * 60.0));
        let local = !oxo_train::roles::is_url(&location);
        if self.takeover && local {
            return Err(format!(
                "--takeover replaces a store run's trainer that was killed on another machine; \
                 {location} is a directory, where a killed trainer's lock is gone with it and \
                 the same command resumes: leave --takeover out"
            ));
        }
        if self.print_config {
            let stored = Path::new(&location).join("config.toml");
            let path = match self.config.as_deref() {
                None if local && stored.exists() => Some(stored.as_path()),
                given => given,
            };
            let (_, text) = config_and_text(variant, path)?;
            print!("{text}");
            return Ok(());
        }
        let options = RoleOptions {
            time_limit,
            cache: self.cache,
            takeover: self.takeover,
            threads: self.threads,
            progress: io::stderr().is_terminal(),
            init: self.init,
            ..Default::default()
        };
        let role = self.role.unwrap_or(Role::All);
        run_roles(
            variant,
            self.config.as_deref(),
            &location,
            role,
            &options,
            &self.device.device,
        )
    }
}

/// Builds the agents `config` plays against (rating agents, self-play opponents), so that a
/// `net:` one whose model is missing is refused before any work (the config's own checks
/// build only the handcrafted ones).
fn check_agents(variant: Variant, config: &oxo_train::RunConfig) -> Result<(), String> {
    with_variant!(variant, G => oxo_train::gate::check_agents::<G>(config))
        .map_err(|e| e.to_string())
}

/// The run configuration at `path`, or the variant's built-in one.
pub fn load_config(variant: Variant, path: Option<&Path>) -> Result<oxo_train::RunConfig, String> {
    config_and_text(variant, path).map(|(config, _)| config)
}

/// The run configuration at `path` (or the variant's built-in one) and its text, checked to be
/// a config of `variant`.
fn config_and_text(
    variant: Variant,
    path: Option<&Path>,
) -> Result<(oxo_train::RunConfig, String), String> {
    let Some(path) = path else {
        let text = oxo_train::RunConfig::default_text(variant).to_string();
        return Ok((oxo_train::RunConfig::default_for(variant), text));
    };
    let (config, text) = oxo_train::RunConfig::load_with_text(path).map_err(|e| e.to_string())?;
    if config.variant != variant.name() {
        return Err(format!(
            "{}: a {} config, but --variant is {variant}",
            path.display(),
            config.variant
        ));
    }
    Ok((config, text))
}

/// `oxo train`: one role (or all three at once) of the run at `location`. Log lines go to
/// standard error (at INFO unless `RUST_LOG` says otherwise) and to the run's `log.txt` (in
/// the run's directory, or this process's cache for an object store). A directory this
/// command created is removed again when the run fails to start (a refused `--init`).
fn run_roles(
    variant: Variant,
    config: Option<&Path>,
    location: &str,
    role: Role,
    options: &RoleOptions,
    device: &oxo_nn::Device,
) -> Result<(), String> {
    let choice = match config {
        Some(_) => ConfigChoice::Given(load_config(variant, config)?),
        None => ConfigChoice::StoredOr(oxo_train::RunConfig::default_for(variant)),
    };
    let local = !oxo_train::roles::is_url(location);
    let fresh_dir = local && !Path::new(location).exists();
    let new_dir_run = local && !Path::new(location).join("config.toml").exists();
    // The agents played against, and a new directory run's warm start, are checked before a
    // config can become a new run's for good (the run then has that config, or the open
    // fails). A URL run's warm start is checked by its trainer.
    let given = matches!(choice, ConfigChoice::Given(_));
    if let ConfigChoice::Given(config) | ConfigChoice::StoredOr(config) = &choice {
        if given {
            check_agents(variant, config)?;
        }
        if let Some(init) = options.init.as_deref().filter(|_| new_dir_run) {
            with_variant!(variant, G => oxo_train::roles::trainer::first_trainer::<G>(config, Some(init), device))
                .map_err(|e| e.to_string())?;
        }
    }
    let result = open_and_run(variant, location, role, choice, given, options, device);
    if result.is_err() && fresh_dir && !has_net(location) {
        let _ = std::fs::remove_dir_all(location);
    }
    result
}

/// Whether the directory run at `location` has its first net (a run that started).
fn has_net(location: &str) -> bool {
    Path::new(location)
        .join(oxo_train::roles::model_key(0))
        .exists()
}

/// Opens the run and runs `role` on it, logging as [`run_roles`] says.
fn open_and_run(
    variant: Variant,
    location: &str,
    role: Role,
    choice: ConfigChoice,
    given: bool,
    options: &RoleOptions,
    device: &oxo_nn::Device,
) -> Result<(), String> {
    // The log is set up first, so what opening the run says (an engine falling back) is
    // shown and, once the run's log file is known, kept in it.
    let run_log = oxo_train::logging::RunLog::new();
    tracing_subscriber::registry()
        .with(stderr_log("info"))
        .with(run_log.layer())
        .init();
    let run = StoreRun::open(location, Some(variant.name()), choice, options)
        .map_err(|e| e.to_string())?;
    run_log
        .open(&run.journal.log_path())
        .map_err(|e| e.to_string())?;
    if !given && !matches!(role, Role::Trainer) {
        check_agents(variant, &run.config)?;
    }
    let summary =
        with_variant!(variant, G => oxo_train::roles::run_role::<G>(&run, role, device, options))
            .map_err(|e| e.to_string())?;
    println!("{summary}");
    Ok(())
}
