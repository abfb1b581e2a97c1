//! Reading a record takes memory within a small multiple of its size (issue 13, class 3),
//! counted by this test binary's own allocator: the most bytes held at once while a large
//! record is parsed, against the size of its text.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use carc_core::fixtures::long_road_record as road;
use carc_core::record::{Format, parse};

/// The system allocator, counting the bytes held now and the most held at once.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes held at once while `text` is parsed, beyond what was held before.
fn peak_while_parsing(text: &str, format: Format, file: &str) -> usize {
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let loaded = parse(text, file, format).expect("a valid record");
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert!(!loaded.record.moves.is_empty());
    drop(loaded);
    peak
}

// One test, so that no other test allocates while this one counts.
#[test]
fn a_large_record_is_read_in_a_small_multiple_of_its_size() {
    let toml = road(25_000);
    assert!(toml.len() > 2 << 20, "{} bytes", toml.len());
    let peak = peak_while_parsing(&toml, Format::Toml, "road.toml");
    // Read whole, the toml crate held about 57 times the text.
    assert!(
        peak < 16 * toml.len(),
        "a TOML record of {} bytes took {peak} bytes ({:.1} times)",
        toml.len(),
        peak as f64 / toml.len() as f64
    );

    let value: serde_json::Value = toml::from_str(&toml).expect("toml");
    let json = serde_json::to_string(&value).expect("json");
    let peak = peak_while_parsing(&json, Format::Json, "road.json");
    assert!(
        peak < 16 * json.len(),
        "a JSON record of {} bytes took {peak} bytes ({:.1} times)",
        json.len(),
        peak as f64 / json.len() as f64
    );
}
