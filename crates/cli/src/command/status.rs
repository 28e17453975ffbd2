//! `oxo status`: where a run stands, read from its directory or store alone.

use oxo_train::roles::StoreRun;

#[derive(clap::Args)]
pub struct StatusArgs {
    /// The run: its directory or URL, as `oxo train --run` was given it.
    #[arg(long)]
    run: String,
}

impl StatusArgs {
    pub fn run(self) -> Result<(), String> {
        let run = StoreRun::open_to_read(&self.run).map_err(|e| e.to_string())?;
        print!(
            "{}",
            oxo_train::roles::status::report(&run).map_err(|e| e.to_string())?
        );
        Ok(())
    }
}
