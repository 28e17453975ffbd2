//! `oxo status`: where a store run stands, from the store alone.

use oxo_train::roles::{ConfigChoice, RoleOptions, StoreRun};

#[derive(clap::Args)]
pub struct StatusArgs {
    /// The run's store: a URL or a directory.
    #[arg(long)]
    run: String,
}

impl StatusArgs {
    pub fn run(self) -> Result<(), String> {
        let options = RoleOptions::default();
        let run = StoreRun::open(&self.run, None, ConfigChoice::Stored, &options)
            .map_err(|e| e.to_string())?;
        print!(
            "{}",
            oxo_train::roles::status::report(&run).map_err(|e| e.to_string())?
        );
        Ok(())
    }
}
