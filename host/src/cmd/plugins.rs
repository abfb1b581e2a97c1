//! `carc plugins list [--json]`: the expansion plugins this host knows, where each was
//! found and whether it loaded.

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::plugins::{self, Origin};

/// `carc plugins` subcommands.
#[derive(Subcommand, Debug)]
pub enum PluginsCommand {
    /// List the plugins: id, version, protocol, path and status.
    List(ListArgs),
}

/// Arguments of `carc plugins list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print one JSON object per plugin (an array) instead of a table.
    #[arg(long)]
    json: bool,
}

/// One plugin, as listed.
#[derive(Serialize, Debug)]
struct Listed {
    id: String,
    version: String,
    protocol: String,
    path: String,
    status: String,
}

/// Lists the plugins; exit 0 (a plugin that did not load is a row, not a failure).
pub fn run(cmd: PluginsCommand) -> u8 {
    let PluginsCommand::List(args) = cmd;
    let rows: Vec<Listed> = crate::catalog::found()
        .iter()
        .map(|f| {
            let path = match &f.origin {
                Origin::Library(p) => p.display().to_string(),
                Origin::Linked => "(linked into carc)".to_string(),
            };
            let described = f.module.clone().and_then(plugins::describe);
            match described {
                Ok((id, version, protocol)) => Listed {
                    id,
                    version,
                    protocol,
                    path,
                    status: match f.origin {
                        Origin::Library(_) => "loaded".into(),
                        Origin::Linked => "linked".into(),
                    },
                },
                Err(why) => Listed {
                    id: f.name.clone(),
                    version: String::new(),
                    protocol: String::new(),
                    path,
                    status: format!("refused: {}", why.lines().next().unwrap_or("")),
                },
            }
        })
        .collect();
    if args.json {
        match serde_json::to_string_pretty(&rows) {
            Ok(text) => println!("{text}"),
            Err(e) => return super::fail(e),
        }
        return 0;
    }
    for r in &rows {
        println!(
            "{:<18} {:<8} protocol {:<6} {:<8} {}",
            r.id,
            if r.version.is_empty() {
                "-"
            } else {
                &r.version
            },
            if r.protocol.is_empty() {
                "-"
            } else {
                &r.protocol
            },
            r.status,
            r.path
        );
    }
    0
}
