//! `oxo status`: where a run stands, read from its directory or store alone.

use std::path::Path;

use oxo_train::roles::StoreRun;

#[derive(clap::Args)]
pub struct StatusArgs {
    /// The run: the directory of an `oxo train` run, or a store run's URL or directory.
    #[arg(long)]
    run: String,
}

impl StatusArgs {
    pub fn run(self) -> Result<(), String> {
        let local = Path::new(&self.run);
        if oxo_train::run_status::is_local_run(local) {
            let report = oxo_train::run_status::report(local).map_err(|e| e.to_string())?;
            print!("{report}");
            return Ok(());
        }
        let run = StoreRun::open_to_read(&self.run).map_err(|e| e.to_string())?;
        print!(
            "{}",
            oxo_train::roles::status::report(&run).map_err(|e| e.to_string())?
        );
        Ok(())
    }
}
