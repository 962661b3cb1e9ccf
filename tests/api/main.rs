//! Integration tests: the real server on port 0 with a temporary data directory, spoken to
//! over real HTTP as a client would. One binary, many modules, to save link time.

// Test code fails loudly on purpose: unwrap and expect are how a test says "this must hold".
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

mod actors;
mod backup;
mod basics;
mod binary;
mod catalogues;
mod concurrency;
mod crash_loop;
mod desk;
mod desk_admin;
mod desk_board;
mod desk_booking;
mod desk_browser;
mod desk_browser_stay;
mod desk_changes;
mod desk_clients_admin;
mod desk_compliance;
mod desk_housekeeping;
mod desk_invoices;
mod desk_kiosk;
mod desk_languages;
mod desk_privacy;
mod desk_rooms_admin;
mod desk_settings;
mod desk_stay;
mod desk_webhooks_admin;
mod doctor;
mod events;
mod feed;
mod fiscal;
mod fiscal_faults;
mod guest_search;
mod guests;
mod history;
mod idempotency;
mod import;
mod invoice_numbers;
mod invoices;
mod layers;
mod lifecycle;
mod limits;
mod oauth;
mod oauth_device;
mod oauth_tokens;
mod pagination;
mod privacy;
mod promises;
mod registration;
mod reservations;
mod rooms;
mod scopes;
mod settings;
mod setup;
mod stays;
mod systemd;
mod tls;
mod wal;
mod webhook_failures;
mod webhooks;
mod webhooks_admin;
mod webhooks_crash;
