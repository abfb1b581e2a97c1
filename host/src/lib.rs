//! carc-host as a library: finding and loading expansion plugins ([`plugins`]) and the
//! catalog of expansions the `carc` command line offers ([`catalog`]). The binary uses
//! both; tests use them to load plugin libraries in-process the way `carc` does.

pub mod catalog;
pub mod plugins;
