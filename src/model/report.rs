//! The owner's reports as the API serves them.

use poem_openapi::Object;

pub use crate::domain::enums::ReportBy;
use crate::model::Date;

/// The occupancy figures of a night, a month or the whole range.
#[derive(Debug, Clone, Object)]
pub struct OccupancyRow {
    /// The night (`2026-11-27`, the night from that day to the next), the month
    /// (`2026-11`), or `total`.
    pub period: String,
    /// Room-nights on sale: the property's rooms times the nights.
    pub rooms_available: i64,
    /// Room-nights held by `confirmed`, `checked_in` and `checked_out` reservations.
    pub rooms_sold: i64,
    /// Their booked price, gross, in minor units (extras and city tax are not room
    /// revenue).
    pub room_revenue: i64,
    /// Average daily rate: `room_revenue / rooms_sold`, rounded half away from zero;
    /// null when nothing was sold.
    pub adr: Option<i64>,
    /// Revenue per available room: `room_revenue / rooms_available`, rounded; null
    /// without rooms.
    pub revpar: Option<i64>,
    /// `100 * rooms_sold / rooms_available`, one decimal; null without rooms.
    pub occupancy_percent: Option<f64>,
}

/// Occupancy, ADR, RevPAR and room revenue over a range, with the definitions of the group
/// hub's `daily_occupancy` view.
#[derive(Debug, Clone, Object)]
pub struct OccupancyReport {
    /// The first night.
    pub from: Date,
    /// The night after the last (exclusive).
    pub to: Date,
    /// How the rows are cut.
    pub by: ReportBy,
    /// ISO 4217 currency of every amount (the property's).
    pub currency: String,
    /// The rows, in order.
    pub rows: Vec<OccupancyRow>,
    /// The whole range.
    pub total: OccupancyRow,
}

/// Net, VAT and gross, in minor units.
#[derive(Debug, Clone, Default, Object)]
pub struct Amounts {
    /// Without VAT.
    pub net: i64,
    /// The VAT.
    pub tax: i64,
    /// With VAT.
    pub gross: i64,
}

/// What one department earned.
#[derive(Debug, Clone, Object)]
pub struct DepartmentRevenue {
    /// `rooms`, `city_tax`, `advances` (deposits billed, and deducted on the stay's bill),
    /// `extra:CODE` for an extra of the catalogue, or `other` (charges typed at the desk).
    pub department: String,
    /// The extra's name as stored (`{en, it, hr}` JSON), for an `extra:` department.
    pub name: Option<String>,
    /// What it came to.
    pub amounts: Amounts,
}

/// What one VAT rate carried.
#[derive(Debug, Clone, Object)]
pub struct VatRevenue {
    /// The rate in basis points (1300 = 13 %).
    pub tax_rate: i64,
    /// What it came to.
    pub amounts: Amounts,
}

/// Revenue invoiced over a range, by department and by VAT rate: the lines of every
/// invoice and credit note (negative) issued in the range, by issue date.
#[derive(Debug, Clone, Object)]
pub struct RevenueReport {
    /// The first day.
    pub from: Date,
    /// The day after the last.
    pub to: Date,
    /// ISO 4217 currency of every amount.
    pub currency: String,
    /// By department, rooms first.
    pub departments: Vec<DepartmentRevenue>,
    /// By VAT rate, lowest first.
    pub vat: Vec<VatRevenue>,
    /// Everything.
    pub total: Amounts,
}

/// The money taken on a day by one method.
#[derive(Debug, Clone, Object)]
pub struct PaymentDay {
    /// The property-local day.
    pub date: Date,
    /// The method and what it took that day (for cash, `net` is what the drawer should
    /// have gained).
    #[oai(flatten)]
    pub taken: PaymentTotal,
}

/// Payments and refunds by day and method over a range (the cash drawer), with each
/// method's total.
#[derive(Debug, Clone, Object)]
pub struct PaymentsReport {
    /// The first day.
    pub from: Date,
    /// The day after the last.
    pub to: Date,
    /// ISO 4217 currency of every amount.
    pub currency: String,
    /// By day, then method.
    pub days: Vec<PaymentDay>,
    /// By method over the range.
    pub methods: Vec<PaymentTotal>,
}

/// The money taken by one method over a report's range.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct PaymentTotal {
    /// `cash`, `card`, `bank_transfer` or `other`.
    pub method: String,
    /// Payments received.
    pub received: i64,
    /// Refunds given back.
    pub refunded: i64,
    /// `received - refunded`.
    pub net: i64,
    /// How many payments and refunds.
    pub count: i64,
}

impl PaymentTotal {
    /// Nothing yet taken by `method`.
    pub fn new(method: String) -> PaymentTotal {
        PaymentTotal {
            method,
            received: 0,
            refunded: 0,
            net: 0,
            count: 0,
        }
    }

    /// Counts a payment (`amount` above zero) or a refund (below).
    pub fn add(&mut self, amount: i64) {
        if amount >= 0 {
            self.received += amount;
        } else {
            self.refunded -= amount;
        }
        self.net += amount;
        self.count += 1;
    }
}

/// The bookings made through one source (and booking site).
#[derive(Debug, Clone, Object)]
pub struct BookingsRow {
    /// `direct`, `phone`, `email`, `walk_in`, `ota` or `other`.
    pub source: String,
    /// The booking site, for `ota` (`Booking.com`, `Expedia`, …).
    pub channel: Option<String>,
    /// Bookings made.
    pub bookings: i64,
    /// Of them, cancelled since.
    pub cancelled: i64,
    /// Of them, not shown.
    pub no_shows: i64,
    /// Room-nights booked (the cancelled and not shown included).
    pub nights: i64,
    /// Their booked room price, gross, minor units.
    pub room_revenue: i64,
    /// Average days from booking to arrival, one decimal.
    pub lead_time_days: f64,
}

/// The bookings made over a range (by the property-local day they were made), by source
/// and booking site.
#[derive(Debug, Clone, Object)]
pub struct BookingsReport {
    /// The first day.
    pub from: Date,
    /// The day after the last.
    pub to: Date,
    /// ISO 4217 currency of every amount.
    pub currency: String,
    /// By source, then booking site.
    pub rows: Vec<BookingsRow>,
}

/// A guest in the house on a night, with their stay.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct GuestListRow {
    /// The stay (`res_…`).
    pub reservation_id: String,
    /// Its booking code.
    pub code: String,
    /// Its room's number.
    pub room: Option<String>,
    /// Whether the stay's primary guest.
    pub primary: bool,
    /// The stay's first night.
    pub arrival: Date,
    /// Its departure.
    pub departure: Date,
    /// The guest, with their registration data (nationality, birth, document).
    pub guest: crate::model::Guest,
}

/// Everyone who stayed the night of `date`: the in-house list, and with the guests'
/// documents the police list.
#[derive(Debug, Clone, Object, serde::Serialize)]
pub struct GuestList {
    /// The night.
    pub date: Date,
    /// By room, then stay, then the party's order.
    pub rows: Vec<GuestListRow>,
}

/// The guests of one place of residence in the ISTAT movement.
#[derive(Debug, Clone, Object)]
pub struct IstatResidence {
    /// `IT-BO` (Italy, a province), `IT` (Italy, province not recorded), a country
    /// (`DE`), or `unknown` (no residence or nationality recorded: fix before filing).
    pub residence: String,
    /// Guests who arrived in the month.
    pub arrivals: i64,
    /// Nights they spent in the month ("presenze").
    pub nights: i64,
}

/// A day of the ISTAT movement.
#[derive(Debug, Clone, Object)]
pub struct IstatDay {
    /// The day.
    pub date: Date,
    /// Guests who arrived.
    pub arrivals: i64,
    /// Guests who left.
    pub departures: i64,
    /// Guests who stayed the night.
    pub present: i64,
    /// Rooms occupied that night.
    pub rooms_occupied: i64,
}

/// `GET /v1/reports/istat`: a month's movement of guests as ISTAT's model C/59 asks.
#[derive(Debug, Clone, Object)]
pub struct IstatReport {
    /// The month, `2026-11`.
    pub month: String,
    /// The property's rooms.
    pub rooms: i64,
    /// Its beds: each room's type's `max_occupancy`, summed.
    pub beds: i64,
    /// By residence: Italians by province first, then countries, then `unknown`.
    pub residences: Vec<IstatResidence>,
    /// Day by day.
    pub days: Vec<IstatDay>,
    /// Guests who arrived in the month.
    pub arrivals: i64,
    /// Nights spent in the month.
    pub nights: i64,
}

/// A month of the city-tax report.
#[derive(Debug, Clone, Object)]
pub struct CityTaxMonth {
    /// `2026-10`.
    pub month: String,
    /// Stays checked out in the month.
    pub stays: i64,
    /// Every guest, every night of those stays.
    pub person_nights: i64,
    /// Exempt: guests under the age limit.
    pub exempt_age: i64,
    /// Exempt: nights beyond the cap per stay.
    pub exempt_beyond_cap: i64,
    /// Taxed at the ordinary rate.
    pub taxed: i64,
    /// `taxed` at the rate in force now, in minor units.
    pub due: i64,
    /// Person-nights on the city-tax lines of the invoices issued in the month (less those
    /// credited).
    pub billed_person_nights: i64,
    /// Their amount, gross.
    pub billed: i64,
}

/// `GET /v1/reports/city-tax`: a quarter's city tax as the return asks, month by month.
#[derive(Debug, Clone, Object)]
pub struct CityTaxReport {
    /// `2026`.
    pub year: i32,
    /// 1 to 4.
    pub quarter: u32,
    /// The rate per person per night in force now, minor units (0 without a city tax).
    pub rate: i64,
    /// Nights per stay after which nothing more is due (null: no cap).
    pub max_nights: Option<i64>,
    /// Guests younger than this on arrival are exempt (null: nobody).
    pub exempt_under_age: Option<i64>,
    /// The property's currency.
    pub currency: String,
    /// The quarter's three months.
    pub months: Vec<CityTaxMonth>,
    /// The quarter.
    pub total: CityTaxMonth,
}
