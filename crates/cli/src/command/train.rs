//! `oxo train`: self-play training of a run directory (resumed where it stopped), or one
//! role of a store run that many processes share.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Duration;

use oxo_rules::{Variant, with_variant};
use oxo_train::roles::{ConfigChoice, Role, RoleOptions, StoreRun};
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
    /// The run configuration (default: the run directory's own `config.toml` when it
    /// holds a run, so the same command without --config resumes it as it was; else the
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
    /// Run one role of a store run: `selfplay` (any number of workers), `trainer`
    /// (exactly one), `gate` (one), or `all` (the three at once; the default for a URL).
    /// With a directory, the directory is then a store run.
    #[arg(long, value_parser = parse_role)]
    role: Option<Role>,
    /// Start this trainer although another one wrote to the store in the last two
    /// minutes: that one was killed and this one replaces it.
    #[arg(long)]
    takeover: bool,
    /// Where a store run's processes keep the models they fetch (default: a folder of
    /// the system's temporary directory).
    #[arg(long)]
    cache: Option<PathBuf>,
    /// Threads this process of a store run plays on, 1 to 1024 (default: the config's
    /// selfplay.workers).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Stop at the first stage boundary after this many minutes (above 0, at most a year).
    #[arg(long, allow_negative_numbers = true, value_parser = parse_minutes)]
    minutes: Option<f64>,
    /// Start a new run directory from this model's weights (a model file or checkpoint of
    /// the config's variant and net size) instead of a random net; read only when the
    /// directory holds no run yet, so the same command resumes. Not for a store run.
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
        let device = &self.device.device;
        let is_store = self.role.is_some() || oxo_train::roles::is_url(&location);
        if self.takeover && !is_store {
            return Err(format!(
                "--takeover replaces a store run's trainer (--run URL, or --role trainer); \
                 {location} is a run directory, which resumes by itself: leave --takeover out"
            ));
        }
        // A run directory that holds a run keeps its own config unless --config names one.
        let stored = Path::new(&location).join("config.toml");
        let config_path = match self.config.as_deref() {
            None if !is_store && stored.exists() => Some(stored.as_path()),
            given => given,
        };
        if self.print_config {
            let (_, text) = config_and_text(variant, config_path)?;
            print!("{text}");
            Ok(())
        } else if is_store {
            let options = RoleOptions {
                time_limit,
                cache: self.cache,
                takeover: self.takeover,
                threads: self.threads,
                progress: io::stderr().is_terminal(),
                ..Default::default()
            };
            let role = self.role.unwrap_or(Role::All);
            let config = self.config.as_deref();
            run_store(
                variant, config, &location, role, self.init, &options, device,
            )
        } else {
            let config = load_config(variant, config_path)?;
            run_directory(
                variant,
                config,
                Path::new(&location),
                time_limit,
                self.init,
                device,
            )
        }
    }
}

/// Builds `config`'s rating agents, so that a `net:` one whose model is missing is refused
/// before any work (the config's own checks build only the handcrafted ones).
fn check_rate_agents(variant: Variant, config: &oxo_train::RunConfig) -> Result<(), String> {
    with_variant!(variant, G => oxo_train::gate::check_rate_agents::<G>(config))
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

/// `oxo train --run URL` or `--role ROLE`: one role (or all three) of a store run. Log lines
/// go to standard error (at INFO unless `RUST_LOG` says otherwise): a store has no log file.
fn run_store(
    variant: Variant,
    config: Option<&Path>,
    location: &str,
    role: Role,
    init: Option<PathBuf>,
    options: &RoleOptions,
    device: &oxo_nn::Device,
) -> Result<(), String> {
    if let Some(init) = init {
        return Err(format!(
            "--init {}: a store run starts from a random net; --init works with a run directory",
            init.display()
        ));
    }
    if !oxo_train::roles::is_url(location) && Path::new(location).join("state.json").exists() {
        return Err(format!(
            "{location} is a run directory of `oxo train` without --role; a store run needs \
             another directory or a URL"
        ));
    }
    tracing_subscriber::registry()
        .with(stderr_log("info"))
        .init();
    let choice = match config {
        Some(_) => ConfigChoice::Given(load_config(variant, config)?),
        None => ConfigChoice::StoredOr(oxo_train::RunConfig::default_for(variant)),
    };
    // Rating agents are built before a given config can become a new run's for good (the
    // run then has that config, or the open fails), and before the gate works on a stored one.
    let given = matches!(choice, ConfigChoice::Given(_));
    if let ConfigChoice::Given(config) = &choice {
        check_rate_agents(variant, config)?;
    }
    let run = StoreRun::open(location, Some(variant.name()), choice, options)
        .map_err(|e| e.to_string())?;
    if !given && matches!(role, Role::Gate | Role::All) {
        check_rate_agents(variant, &run.config)?;
    }
    let summary =
        with_variant!(variant, G => oxo_train::roles::run_role::<G>(&run, role, device, options))
            .map_err(|e| e.to_string())?;
    println!("{summary}");
    Ok(())
}

/// `oxo train --run DIR`: the whole loop in one process, its log in the run's `log.txt`.
fn run_directory(
    variant: Variant,
    config: oxo_train::RunConfig,
    root: &Path,
    time_limit: Option<Duration>,
    init: Option<PathBuf>,
    device: &oxo_nn::Device,
) -> Result<(), String> {
    check_rate_agents(variant, &config)?;
    let fresh = !root.exists();
    let run = oxo_train::RunDir::open(root, &config).map_err(|e| e.to_string())?;
    let run_log = oxo_train::logging::run_log_layer(&run).map_err(|e| e.to_string())?;
    tracing_subscriber::registry()
        .with(stderr_log("warn"))
        .with(run_log)
        .init();
    let options = oxo_train::LoopOptions {
        time_limit,
        max_stages: None,
        command: std::env::args().collect(),
        progress: true,
        init,
    };
    let state = with_variant!(variant, G => oxo_train::run_loop::<G>(&run, device, &options))
        .map_err(|e| {
            // A run that never started (a refused --init) leaves nothing behind.
            if fresh && !run.state_path().exists() {
                let _ = std::fs::remove_dir_all(root);
            }
            e.to_string()
        })?;
    println!("{}", oxo_train::run_status::summary(&run, &state));
    Ok(())
}
