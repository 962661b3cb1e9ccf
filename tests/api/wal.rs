//! The write-ahead log stays bounded under continuous writes while readers never stop: the
//! passive checkpoint alone cannot wrap the WAL then, so the writer restarts it between
//! batches once it passes 8 MiB (see `db::writer`). Sizes are asserted, never timings.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::support::{day, spawn_app};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_wal_stays_bounded_under_writes_with_readers_always_reading() {
    let app = Arc::new(spawn_app().await);
    let rt = app.room_type("DBL", 2).await;
    for n in 0..40 {
        app.room(&format!("{}", 100 + n), &rt).await;
    }
    let g = app.guest("Anna", "Rossi").await;
    let wal = {
        let mut name = app.db().path().as_os_str().to_owned();
        name.push("-wal");
        std::path::PathBuf::from(name)
    };
    let writing = Arc::new(AtomicBool::new(true));
    let mut readers = Vec::new();
    for _ in 0..4 {
        let (app, writing) = (app.clone(), writing.clone());
        readers.push(tokio::spawn(async move {
            let mut reads = 0;
            while writing.load(Ordering::Relaxed) {
                app.get("/v1/reservations?limit=50").await.expect(200);
                reads += 1;
            }
            reads
        }));
    }
    // About 60 MB of WAL frames without the restart (each booking changes a dozen pages).
    let next = Arc::new(AtomicUsize::new(0));
    let largest = Arc::new(AtomicUsize::new(0));
    let mut writers = Vec::new();
    for _ in 0..8 {
        let (app, next, largest) = (app.clone(), next.clone(), largest.clone());
        let (rt, g, wal) = (rt.clone(), g.clone(), wal.clone());
        writers.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= 2400 {
                    break;
                }
                // Forty rooms, one night each, sixty nights ahead: never full.
                let night = 1 + (i / 40) as i64;
                app.reserve(&g, &rt, &day(night), &day(night + 1))
                    .await
                    .expect(201);
                let size = std::fs::metadata(&wal).map_or(0, |m| m.len()) as usize;
                largest.fetch_max(size, Ordering::Relaxed);
            }
        }));
    }
    for w in writers {
        w.await.unwrap();
    }
    writing.store(false, Ordering::Relaxed);
    let mut reads = 0;
    for r in readers {
        reads += r.await.unwrap();
    }
    assert!(
        reads > 0,
        "the readers read while the bookings were written"
    );
    let largest = largest.load(Ordering::Relaxed);
    assert!(
        largest < 32 * 1024 * 1024,
        "the WAL grew to {largest} bytes under 2,400 bookings"
    );
}
