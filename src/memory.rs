//! Handing freed memory back to the system. glibc's allocator keeps the pages a burst of
//! work freed (start-up builds the API description, its routes and the spec; a busy hour
//! leaves many megabytes of freed buffers) until it is asked to let go: an idle server
//! would otherwise sit at its high-water mark. [`trimmer`] asks once the server is built
//! and then every minute, off the async workers. Elsewhere than glibc it does nothing.

use std::time::Duration;

/// How often freed memory is handed back.
const EVERY: Duration = Duration::from_secs(60);

/// Returns the allocator's free pages to the system; how much that was is not reported.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists under its locks; it
    // takes no pointers from us and is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Trims now and then every minute, until the task is aborted.
pub fn trimmer() -> tokio::task::JoinHandle<()> {
    tokio::spawn(async {
        let mut tick = tokio::time::interval(EVERY);
        loop {
            tick.tick().await;
            let _ = tokio::task::spawn_blocking(trim).await;
        }
    })
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::*;

    fn resident_anon_kb() -> i64 {
        std::fs::read_to_string("/proc/self/status")
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("RssAnon:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    #[test]
    fn freed_small_blocks_go_back_to_the_system() {
        // 64 MiB in blocks far below the mmap threshold, so free() keeps them in the heap.
        let blocks: Vec<Vec<u8>> = (0..262_144).map(|i| vec![i as u8; 256]).collect();
        // A block above them keeps the heap from shrinking by itself when they are freed.
        let pin = vec![1u8; 256];
        drop(blocks);
        let freed = resident_anon_kb();
        trim();
        let trimmed = resident_anon_kb();
        assert!(freed - trimmed > 32 * 1024, "{freed} kB -> {trimmed} kB");
        drop(pin);
    }
}
