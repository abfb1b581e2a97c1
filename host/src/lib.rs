//! carc-host as a library: the [`host`] (plugin discovery, checks before loading, games
//! with any enabled subset of the plugins), plugin directories ([`package`]), the
//! configuration file ([`config`]), [`trust`], loading plugin libraries ([`plugins`], each
//! tried in a test process first when [`probe`] is enabled) and
//! the process-wide host the `carc` command line uses ([`catalog`]), how it reports
//! ([`output`]), where it may write files ([`destination`]) and bot games as `carc play`
//! plays them ([`game`]). [`view`] makes the replay
//! viewer, a record as one HTML page; [`render`] draws tiles and boards as SVG or PNG.

#[macro_use]
pub mod output;

#[cfg(unix)]
pub(crate) mod accounts;
pub mod catalog;
pub mod config;
pub mod destination;
pub mod game;
pub mod host;
pub mod package;
pub mod plugins;
pub mod probe;
pub mod render;
pub mod trust;
pub mod view;
