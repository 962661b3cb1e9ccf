//! `innkeep setup`: the first run. On a terminal it asks (the `dialoguer` crate); for
//! scripts every answer is a flag. Each answer is checked by the same rules as the API's,
//! as it is given, and nothing is written until all of them are good.

use std::io::IsTerminal;

use serde_json::{Value, json};

use super::admin::with_services;
use super::setup_ask::Ask;
use crate::config::{Flags, Loaded};
use crate::domain::room_numbers;
use crate::error::FieldError;
use crate::model::input::FromJson;
use crate::model::{RoomTypeCreate, SettingsUpdate};
use crate::service::setup::{self, Plan, RoomsPlan};
use crate::service::setup_plan::{default_vat, default_zone, whole};

/// `innkeep setup`'s flags; what is not given is asked on a terminal.
#[derive(Debug, Default, clap::Args)]
pub struct SetupArgs {
    /// The property's name, printed on invoices.
    #[arg(long)]
    pub name: Option<String>,
    /// The property's country (ISO 3166-1), such as IT or HR.
    #[arg(long)]
    pub country: Option<String>,
    /// The property's IANA time zone, such as Europe/Rome.
    #[arg(long, value_name = "ZONE")]
    pub time_zone: Option<String>,
    /// The currency of rates and invoices (ISO 4217), such as EUR.
    #[arg(long)]
    pub currency: Option<String>,
    /// The VAT rate on rooms in percent, such as 10 (Italy) or 13 (Croatia); offered from
    /// the country.
    #[arg(long, value_name = "PERCENT")]
    pub tax_rate: Option<String>,
    /// A room type and its rooms, CODE:NAME:GUESTS:RATE:ROOMS, such as
    /// "DBL:Double room:2:95.00:101-112". Repeat it for each room type.
    #[arg(long = "room-type", value_name = "SPEC")]
    pub room_types: Vec<String>,
    /// The first admin's user name.
    #[arg(long, value_name = "NAME")]
    pub admin: Option<String>,
    /// Read the admin's password from standard input (else one is made and printed once).
    #[arg(long)]
    pub admin_password_stdin: bool,
    /// The seller on invoices.
    #[command(flatten)]
    pub seller: super::setup_seller::SellerArgs,
    /// Guest registration: none, it-alloggiati (Italy) or hr-evisitor (Croatia).
    #[arg(long, value_name = "SCHEME")]
    pub registration: Option<String>,
    /// Fiscal receipts: none or hr-cis.
    #[arg(long, value_name = "SCHEME")]
    pub fiscal: Option<String>,
    /// A setting of the chosen schemes, such as compliance.registration.username=hotel1.
    /// Repeatable; written to the data directory's innkeep.toml.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Ask nothing: a missing answer is an error (always so without a terminal).
    #[arg(long)]
    pub no_input: bool,
    /// Print one JSON object at the end.
    #[arg(long)]
    pub json: bool,
}

/// Runs `innkeep setup`.
pub fn run(l: &Loaded, flags: &Flags, args: &SetupArgs) -> Result<(), String> {
    let _lock = super::serve::lock(&l.data_dir)?;
    let fresh = with_services(l, Default::default(), async |svc, _| {
        setup::is_new(svc).await
    })?;
    if !fresh {
        return Err(format!(
            "{} is already set up (it has staff or room types). Change the property on the \
             front desk's Administration pages, or use a new --data-dir.",
            l.data_dir.display()
        ));
    }
    let interactive = !args.no_input && std::io::stdin().is_terminal();
    let mut ask = Ask::new(interactive);
    let settings = ask_settings(&mut ask, args)?;
    let rooms = ask_rooms(&mut ask, args)?;
    let admin = ask.text(
        "The first admin's user name",
        args.admin.clone(),
        Some("admin"),
        "--admin",
        |s| field_rule("username", crate::service::oauth::username_rule(s)),
    )?;
    let (password, generated) = ask_password(&mut ask, args)?;
    let compliance = super::setup_compliance::ask(&mut ask, l, args, &settings.1[1].1)?;
    if interactive && !ask.confirm(&summary(&settings.1, &rooms, &admin))? {
        return Err("Nothing was changed.".into());
    }
    let plan = Plan {
        settings: settings.0,
        rooms,
        admin,
        password: password.clone(),
    };
    let written = compliance.write(flags)?;
    let done = with_services(l, Default::default(), async |svc, p| {
        setup::apply(svc, p, plan).await
    })
    .inspect_err(|_| compliance.undo())?;
    let address = address_to_open(l.config.server.listen, l.config.server.tls_cert.is_some());
    if args.json {
        let pw = generated.then_some(&password);
        println!(
            "{}",
            json!({"done": done, "password": pw, "config_file": written, "address": address})
        );
        return Ok(());
    }
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    println!(
        "\ninnkeep is set up: {}, {}, and the admin {}.",
        plural(done.room_types, "room type", "room types"),
        plural(done.rooms, "room", "rooms"),
        done.admin
    );
    if generated {
        println!(
            "The admin's password (shown only now; write it down): {password}\n\
             They can change it under My account once signed in."
        );
    }
    if let Some(file) = written {
        println!("The compliance settings are in {}.", file.display());
    }
    println!(
        "\nStart innkeep (`innkeep serve`, or `sudo systemctl start innkeep` when installed \
         as a service), then open {address} in the browser and sign in as {}.",
        done.admin
    );
    Ok(())
}

/// The front desk's address as a person types it (see [`crate::auth::lan_address`]).
fn address_to_open(listen: std::net::SocketAddr, https: bool) -> String {
    format!("{}/", crate::auth::lan_address(listen, https))
}

/// The property's settings, as the API's input and as a (label, value) list to show.
fn ask_settings(
    ask: &mut Ask,
    args: &SetupArgs,
) -> Result<(SettingsUpdate, Vec<(String, String)>), String> {
    let name = ask.text(
        "The property's name (printed on invoices)",
        args.name.clone(),
        None,
        "--name",
        |s| settings_rule("name", s),
    )?;
    let country = ask.text(
        "Country (two letters, such as IT or HR)",
        args.country.clone(),
        None,
        "--country",
        |s| settings_rule("country", &s.to_ascii_uppercase()),
    )?;
    let country = country.to_ascii_uppercase();
    let zone = ask.text(
        "Time zone",
        args.time_zone.clone(),
        Some(default_zone(&country)),
        "--time-zone",
        |s| settings_rule("time_zone", s),
    )?;
    let currency = ask.text(
        "Currency",
        args.currency.clone(),
        Some("EUR"),
        "--currency",
        |s| settings_rule("currency", &s.to_ascii_uppercase()),
    )?;
    let currency = currency.to_ascii_uppercase();
    let vat = ask.text(
        "The VAT rate on rooms, in percent",
        args.tax_rate.clone(),
        Some(default_vat(&country)),
        "--tax-rate",
        |s| basis_points(s).map(drop),
    )?;
    let tax = basis_points(&vat)?;
    let mut input = json!({"name": name, "country": country, "time_zone": zone,
                           "currency": currency, "default_tax_rate": tax});
    let seller = super::setup_seller::ask(ask, &args.seller, &country)?;
    if let Some((s, _)) = &seller {
        input["seller"] = s.clone();
    }
    let mut errs = Vec::new();
    let update = SettingsUpdate::from_json(&input, "", &mut errs).ok_or_else(|| said(&errs))?;
    let mut shown = vec![
        ("Property".into(), name),
        ("Country".into(), country),
        ("Time zone".into(), zone),
        ("Currency".into(), currency),
        (
            "VAT on rooms".into(),
            format!("{} %", crate::domain::money::format_amount(tax)),
        ),
    ];
    shown.extend(seller.map(|(_, line)| line));
    Ok((update, shown))
}

/// A percentage as typed ("13", "9.5", "9,5") in basis points, by the API's rule.
fn basis_points(s: &str) -> Result<i64, String> {
    let bp = crate::domain::money::parse_amount(s)
        .ok_or_else(|| format!("{s:?} is not a percentage; write it as 13 or 9.5"))?;
    let mut errs = Vec::new();
    SettingsUpdate::from_json(&json!({ "default_tax_rate": bp }), "", &mut errs);
    match errs.first() {
        Some(e) => Err(format!("{s} % {}", e.message.replace("10000", "100 %"))),
        None => Ok(bp),
    }
}

/// Room types and their rooms: from `--room-type` flags, or asked one type at a time.
fn ask_rooms(ask: &mut Ask, args: &SetupArgs) -> Result<Vec<RoomsPlan>, String> {
    let mut plans = Vec::new();
    for spec in &args.room_types {
        let parts: Vec<&str> = spec.splitn(5, ':').map(str::trim).collect();
        let [code, name, guests, rate, numbers] = parts[..] else {
            return Err(format!(
                "--room-type {spec:?}: write it as CODE:NAME:GUESTS:RATE:ROOMS, such as \
                 \"DBL:Double room:2:95.00:101-112\""
            ));
        };
        let plan = room_plan(code, name, guests, rate, numbers)
            .map_err(|e| format!("--room-type {spec:?}: {e}"))?;
        plans.push(plan);
    }
    if plans.is_empty() && !ask.interactive() {
        return Err(
            "name at least one room type with --room-type CODE:NAME:GUESTS:RATE:ROOMS".into(),
        );
    }
    while plans.is_empty() || (args.room_types.is_empty() && ask.again("Another room type?")?) {
        println!("\nRoom type {}", plans.len() + 1);
        let code = ask.prompt("  Short code (such as DBL)", None, |s| {
            type_rule(json!({"code": s.to_ascii_uppercase()}), "code")
        })?;
        let name = ask.prompt("  Name (such as Double room)", None, |s| {
            type_rule(json!({"name": s}), "name")
        })?;
        let guests = ask.prompt("  Most guests in one room", Some("2"), |s| {
            type_rule(json!({"max_occupancy": whole(s)}), "max_occupancy")
        })?;
        let rate = ask.prompt("  Nightly rate (such as 95.00)", None, |s| {
            rate_of(s).map(drop)
        })?;
        let numbers = ask.prompt("  Room numbers (such as 101-112, 201)", None, |s| {
            room_numbers::expand(s).map(drop)
        })?;
        let plan = room_plan(&code.to_ascii_uppercase(), &name, &guests, &rate, &numbers)?;
        if plans
            .iter()
            .any(|p: &RoomsPlan| p.numbers.iter().any(|n| plan.numbers.contains(n)))
        {
            println!(
                "  Some of those rooms are already in an earlier room type; type this one again."
            );
            continue;
        }
        println!(
            "  {} rooms: {}",
            plan.numbers.len(),
            plan.numbers.join(", ")
        );
        plans.push(plan);
    }
    check_distinct(&plans)?;
    Ok(plans)
}

/// One room type from its five answers.
fn room_plan(
    code: &str,
    name: &str,
    guests: &str,
    rate: &str,
    numbers: &str,
) -> Result<RoomsPlan, String> {
    let input = json!({
        "code": code.to_ascii_uppercase(),
        "name": name,
        "max_occupancy": whole(guests),
        "base_rate": rate_of(rate)?,
    });
    let mut errs = Vec::new();
    let room_type = RoomTypeCreate::from_json(&input, "", &mut errs).ok_or_else(|| said(&errs))?;
    let numbers = room_numbers::expand(numbers).map_err(|e| format!("rooms: {e}"))?;
    Ok(RoomsPlan { room_type, numbers })
}

/// Two room types may not share a code or a room.
fn check_distinct(plans: &[RoomsPlan]) -> Result<(), String> {
    for (i, p) in plans.iter().enumerate() {
        for q in &plans[..i] {
            if q.room_type.code.0 == p.room_type.code.0 {
                return Err(format!(
                    "the room type code {} is used twice",
                    p.room_type.code.0
                ));
            }
            if let Some(n) = p.numbers.iter().find(|n| q.numbers.contains(n)) {
                return Err(format!("room {n} is in two room types"));
            }
        }
    }
    Ok(())
}

/// The admin's password: read from standard input, asked twice, or made.
fn ask_password(ask: &mut Ask, args: &SetupArgs) -> Result<(String, bool), String> {
    if args.admin_password_stdin {
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        let pw = line.trim_end_matches(['\r', '\n']).to_string();
        field_rule(
            "password",
            crate::service::oauth::password_rule("password", &pw),
        )?;
        return Ok((pw, false));
    }
    if !ask.interactive() {
        return Ok((crate::auth::secrets::token("pw")[3..27].to_string(), true));
    }
    let rule = |s: &str| {
        field_rule(
            "password",
            crate::service::oauth::password_rule("password", s),
        )
    };
    let typed = ask.secret(
        "The admin's password (at least 10 characters; leave it empty to have one made)",
        rule,
    )?;
    Ok(match typed {
        Some(pw) => (pw, false),
        None => (crate::auth::secrets::token("pw")[3..27].to_string(), true),
    })
}

/// What setup is about to do, for a last "Yes".
fn summary(settings: &[(String, String)], rooms: &[RoomsPlan], admin: &str) -> String {
    let mut out = String::from("\nAbout to set up:\n");
    for (label, value) in settings {
        out.push_str(&format!("  {label}: {value}\n"));
    }
    for r in rooms {
        out.push_str(&format!(
            "  {} ({}): {} rooms, {}\n",
            r.room_type.name.0,
            r.room_type.code.0,
            r.numbers.len(),
            r.numbers.join(", ")
        ));
    }
    out.push_str(&format!("  Admin: {admin}\n"));
    out
}

/// A nightly rate in minor units.
fn rate_of(s: &str) -> Result<i64, String> {
    match crate::domain::money::parse_amount(s) {
        Some(n) if n >= 0 => Ok(n),
        _ => Err(format!("{s:?} is not an amount; write it as 95 or 95.50")),
    }
}

/// Checks one settings field by the API's rule.
fn settings_rule(field: &str, value: &str) -> Result<(), String> {
    let mut errs = Vec::new();
    SettingsUpdate::from_json(&json!({ field: value }), "", &mut errs);
    errs.first().map_or(Ok(()), |e| Err(e.message.clone()))
}

/// Checks one room type field by the API's rule (the other fields' errors ignored).
fn type_rule(input: Value, field: &str) -> Result<(), String> {
    let mut errs = Vec::new();
    RoomTypeCreate::from_json(&input, "", &mut errs);
    errs.iter()
        .find(|e| e.field == field)
        .map_or(Ok(()), |e| Err(e.message.clone()))
}

fn field_rule(field: &str, e: Option<FieldError>) -> Result<(), String> {
    e.map_or(Ok(()), |e| Err(format!("{field} {}", e.message)))
}

/// Field errors as one line: "name is required; currency must be …".
fn said(errs: &[FieldError]) -> String {
    errs.iter()
        .map(|e| format!("{} {}", e.field, e.message))
        .collect::<Vec<_>>()
        .join("; ")
}
