//! The plugin side of the boundary: the root module's functions for an [`Expansion`]
//! type, which [`export_expansion!`](crate::export_expansion) puts into a plugin crate.
//! Every entry point catches panics and reports them as errors.

use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};

use abi_stable::std_types::{RStr, RString};

pub use abi_stable::library::{
    __call_root_module_loader, CheckTypeLayout, IntoRootModuleResult, LibHeader, RootModuleResult,
};
pub use abi_stable::prefix_type::{PrefixTypeTrait, WithMetadata};

use crate::abi::{self, HookInput, HostTable, PluginMod, Sink, hook, status};
use crate::action::Action;
use crate::event::Event;
use crate::expansion::{Expansion, Offers, Out};
use crate::ids::{FigureId, SegmentId, TileType};
use crate::view::View;

/// The symbol a plugin library exports its root module under: this prefix and the
/// library's crate name (so that several plugins can also be linked into one binary).
pub const SYMBOL_PREFIX: &str = "carc_plugin_";

/// The protocol and features, as [`PluginMod::protocol`] reports them.
pub use crate::abi::PROTOCOL_LINE;

/// The root module of an expansion type (the plugin's module, as a constant).
pub const fn module<E: Expansion>() -> PluginMod {
    PluginMod {
        protocol,
        manifest: manifest::<E>,
        tile_file: tile_file::<E>,
        instantiate: instantiate::<E>,
        call: call::<E>,
        drop_instance: drop_instance::<E>,
    }
}

extern "C" fn protocol() -> RStr<'static> {
    RStr::from_str(PROTOCOL_LINE)
}

extern "C" fn manifest<E: Expansion>() -> RStr<'static> {
    RStr::from_str(E::MANIFEST)
}

extern "C" fn tile_file<E: Expansion>(
    index: u32,
    name: &mut RStr<'static>,
    text: &mut RStr<'static>,
) -> bool {
    match E::TILES.get(index as usize) {
        Some((n, t)) => {
            *name = RStr::from_str(n);
            *text = RStr::from_str(t);
            true
        }
        None => false,
    }
}

thread_local! {
    /// Where the last panic on this thread happened (`file:line:column`), kept by the
    /// panic hook of a plugin library (see [`loaded_as_library`]) until it is reported.
    static PANICKED_AT: Cell<Option<String>> = const { Cell::new(None) };
}

/// Called once by a plugin library's loader (see [`export_expansion!`]), never when the
/// expansion is linked into a binary: the library's own copy of the standard library
/// then prints nothing when the plugin panics, and only notes where; the host reports
/// the panic as a fault, with its message and that place (a panic while the expansion is
/// dropped is said on standard error). A panic in a thread the plugin starts itself is
/// its own to report (through the thread's `join`).
#[doc(hidden)]
pub fn loaded_as_library() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let at = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            let _ = PANICKED_AT.try_with(|p| p.set(at));
        }));
    });
}

/// A caught panic's message, with where it happened when the library's panic hook noted
/// it.
fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into());
    match PANICKED_AT.try_with(Cell::take).ok().flatten() {
        Some(at) => format!("{message}, at {at}"),
        None => message,
    }
}

extern "C" fn instantiate<E: Expansion>(host: &HostTable, error: &mut RString) -> *mut c_void {
    let made = catch_unwind(AssertUnwindSafe(|| E::new(&View::new(host))));
    match made {
        Ok(Ok(e)) => Box::into_raw(Box::new(e)).cast(),
        Ok(Err(why)) => {
            *error = RString::from(why);
            std::ptr::null_mut()
        }
        Err(p) => {
            *error = RString::from(format!("it panicked in `new` ({})", panic_message(p)));
            std::ptr::null_mut()
        }
    }
}

extern "C" fn drop_instance<E: Expansion>(instance: *mut c_void) {
    if !instance.is_null() {
        // SAFETY: made by `instantiate::<E>` and dropped once by the host.
        let dropped = catch_unwind(|| drop(unsafe { Box::from_raw(instance.cast::<E>()) }));
        if let Err(p) = dropped {
            // Nothing is left to disable: said on standard error, as the library's panic
            // hook prints nothing.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "error: an expansion panicked while it was dropped ({})",
                panic_message(p)
            );
        }
    }
}

thread_local! {
    /// Scratch space for the actions of a `forbid` call.
    static SCRATCH: RefCell<(Vec<Action>, Vec<bool>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

extern "C" fn call<E: Expansion>(
    instance: *mut c_void,
    hook_id: u32,
    host: &HostTable,
    input: &HookInput,
    sink: &Sink,
    error: &mut RString,
) -> i64 {
    if instance.is_null() {
        *error = RString::from("no instance");
        return status::PANICKED;
    }
    // SAFETY: made by `instantiate::<E>`; hooks only read it.
    let e: &E = unsafe { &*instance.cast::<E>() };
    if hook_id == hook::WHY_NOT {
        let view = View::new(host);
        let action = Action::from_raw(&input.action);
        return match catch_unwind(AssertUnwindSafe(|| e.why_not(&view, &action))) {
            Ok(Some(why)) => {
                *error = RString::from(why);
                1
            }
            Ok(None) => 0,
            Err(p) => {
                *error = RString::from(panic_message(p));
                status::PANICKED
            }
        };
    }
    let run = catch_unwind(AssertUnwindSafe(|| dispatch(e, hook_id, host, input, sink)));
    match run {
        Ok(v) => v,
        Err(p) => {
            *error = RString::from(panic_message(p));
            status::PANICKED
        }
    }
}

fn text(input: &HookInput) -> &str {
    if input.text.is_null() {
        return "";
    }
    // SAFETY: the host passes `text_len` bytes of UTF-8 valid during the call.
    let bytes = unsafe { std::slice::from_raw_parts(input.text, input.text_len) };
    std::str::from_utf8(bytes).unwrap_or("")
}

fn dispatch<E: Expansion>(
    e: &E,
    hook_id: u32,
    host: &HostTable,
    input: &HookInput,
    sink: &Sink,
) -> i64 {
    let view = View::new(host);
    let tile = || TileType::from_raw(input.a).unwrap_or(TileType(u32::MAX));
    match hook_id {
        hook::ENTER_PHASE => e.enter_phase(&view, &mut Out::new(sink)),
        hook::ACTIONS => e.actions(&view, &mut Offers::new(sink)),
        hook::RESTRICTS => return i64::from(e.restricts(&view)),
        hook::FORBID => {
            let raw: &[abi::RawAction] = if input.actions.is_null() {
                &[]
            } else {
                // SAFETY: the host passes `len` actions and `len` flags for the call.
                unsafe { std::slice::from_raw_parts(input.actions, input.len) }
            };
            let flags: &mut [u8] = if input.flags.is_null() {
                &mut []
            } else {
                // SAFETY: as above.
                unsafe { std::slice::from_raw_parts_mut(input.flags, input.len) }
            };
            SCRATCH.with(|s| {
                let mut s = s.borrow_mut();
                let (actions, forbidden) = &mut *s;
                actions.clear();
                actions.extend(raw.iter().map(Action::from_raw));
                forbidden.clear();
                forbidden.resize(actions.len(), false);
                e.forbid(&view, actions, forbidden);
                for (f, &b) in flags.iter_mut().zip(forbidden.iter()) {
                    *f = u8::from(b);
                }
            });
        }
        hook::APPLY => e.apply(&view, &Action::from_raw(&input.action), &mut Out::new(sink)),
        hook::ON_EVENT => e.on_event(&view, &Event::from_raw(&input.event), &mut Out::new(sink)),
        hook::FINAL_SCORING => e.final_scoring(&view, &mut Out::new(sink)),
        hook::EXCLUDES_TILE => return i64::from(e.excludes_tile(&view, tile())),
        hook::MAY_REDRAW => return i64::from(e.may_redraw(&view, tile())),
        hook::WATCHES_TILE => return i64::from(e.watches_tile(&view, tile())),
        hook::FEATURE_WORTH => {
            let worth = i32::try_from(input.event.a).unwrap_or(0);
            let worth = match SegmentId::from_raw(input.a) {
                Some(segment) => e.feature_worth(&view, segment, worth),
                None => worth,
            };
            return i64::from(worth) + hook::WORTH_OFFSET;
        }
        hook::FIGURE_STRENGTH => {
            let strength = u32::try_from(input.event.a).unwrap_or(0);
            let figure = FigureId::from_raw(input.a);
            let segment = figure.and_then(|f| match view.figure_place(f) {
                crate::Place::Segment(s) => Some(s),
                _ => None,
            });
            let strength = match (figure, segment) {
                (Some(f), Some(s)) => e.figure_strength(&view, f, s, strength),
                _ => strength,
            };
            return i64::from(strength.min(hook::MAX_STRENGTH)) + hook::STRENGTH_OFFSET;
        }
        hook::HOOKS_IN => return e.hooks_in(text(input)).bits(),
        hook::EVENTS => return (e.events().0 & (i64::MAX as u64)) as i64,
        _ => return status::UNKNOWN_HOOK,
    }
    0
}

/// Makes a type implementing [`Expansion`](crate::Expansion) a plugin: exports its
/// root module from the shared library (the crate's `cdylib`) under a name of its own,
/// and defines `carc_plugin_module()`, the same module for linking the crate into a
/// binary (`rlib`).
///
/// ```
/// use carc_sdk::{Expansion, View};
///
/// pub struct MyExpansion;
///
/// impl Expansion for MyExpansion {
///     const MANIFEST: &'static str = "id = \"mine\"\nname = \"Mine\"\nversion = \"0.1.0\"\n";
///
///     fn new(_view: &View) -> Result<Self, String> {
///         Ok(MyExpansion)
///     }
/// }
///
/// carc_sdk::export_expansion!(MyExpansion);
/// ```
///
/// The type must implement [`Expansion`](crate::Expansion); the crate's `Cargo.toml`
/// says `crate-type = ["cdylib", "rlib"]` under `[lib]`.
#[macro_export]
macro_rules! export_expansion {
    ($expansion:ty) => {
        /// This expansion's plugin module (what the shared library exports), for linking
        /// the expansion into a binary.
        pub fn carc_plugin_module() -> $crate::abi::PluginMod_Ref {
            const MODULE: $crate::plugin::WithMetadata<$crate::abi::PluginMod> =
                $crate::plugin::WithMetadata::new($crate::plugin::module::<$expansion>());
            $crate::abi::PluginMod_Ref(MODULE.static_as_prefix())
        }

        /// The root module's header, which the host finds in the shared library.
        #[unsafe(export_name = concat!("carc_plugin_", env!("CARGO_CRATE_NAME")))]
        pub static CARC_PLUGIN_HEADER: $crate::plugin::LibHeader = {
            extern "C" fn loader() -> $crate::plugin::RootModuleResult {
                $crate::plugin::loaded_as_library();
                $crate::plugin::__call_root_module_loader(carc_plugin_module)
            }
            type Module =
                <$crate::abi::PluginMod_Ref as $crate::plugin::IntoRootModuleResult>::Module;
            // SAFETY: `loader` returns the root module of type `Module`.
            unsafe {
                $crate::plugin::LibHeader::from_constructor::<Module>(
                    loader,
                    $crate::plugin::CheckTypeLayout::Yes,
                )
            }
        };
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_protocol_line_is_the_protocol_and_its_features() {
        assert_eq!(
            super::PROTOCOL_LINE,
            format!("{};{}", crate::abi::PROTOCOL, crate::abi::FEATURES)
        );
    }
}
