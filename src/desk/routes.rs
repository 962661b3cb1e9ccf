//! The front desk's routes: its pages, the kiosk's (the desk's face for guests), the
//! first-run page, signing in and out, and their assets. `api::app` mounts them beside the
//! API's, the OAuth pages' and the documentation's, behind one edge.

use poem::Route;

/// `r` with the desk's routes added.
pub fn mount(r: Route) -> Route {
    r.at("/", poem::get(super::today::today))
        .at(
            "/reservations",
            poem::get(super::reservations::reservations),
        )
        .at(
            "/reservations/:id",
            poem::get(super::reservation::reservation),
        )
        .at("/board", poem::get(super::board::board))
        .at(
            "/housekeeping",
            poem::get(super::housekeeping::housekeeping),
        )
        .at("/housekeeping/:id", poem::post(super::housekeeping::set))
        .at(
            "/reservations/new",
            poem::get(super::new_reservation::page_of).post(super::new_reservation::submit),
        )
        .at(
            "/reservations/:id/check-in",
            poem::get(super::check_in::page_of).post(super::check_in::submit),
        )
        .at(
            "/reservations/:id/check-out",
            poem::get(super::check_out::page_of).post(super::check_out::submit),
        )
        .at("/invoices", poem::get(super::invoices::invoices))
        .at("/admin", poem::get(super::admin::admin))
        .at("/kiosk", poem::get(super::kiosk::start))
        .at("/kiosk/pair", poem::post(super::kiosk_pairing::pair))
        .at("/kiosk/find", poem::post(super::kiosk::find))
        .at("/kiosk/check-in", poem::post(super::kiosk::check_in))
        .at("/kiosk/reset", poem::get(super::kiosk_pairing::reset))
        .at("/kiosk/poll", poem::get(super::kiosk_pairing::poll))
        .at("/kiosk/identity", poem::get(super::kiosk::identity))
        .at(
            "/reservations/:id/identity",
            poem::post(super::identity::confirm),
        )
        .at(
            "/kiosk/language/:tag",
            poem::get(super::kiosk_language::choose),
        )
        .at(
            "/admin/compliance",
            poem::get(super::compliance_admin::centre),
        )
        .at(
            "/admin/compliance/submissions/:id",
            poem::post(super::compliance_admin::retry),
        )
        .at(
            "/admin/compliance/registration-file",
            poem::get(super::compliance_admin::registration_file),
        )
        .at(
            "/admin/compliance/tables",
            poem::post(super::compliance_admin::upload),
        )
        .at(
            "/admin/compliance/cash-register/close",
            poem::post(super::compliance_admin::close_day),
        )
        .at(
            "/admin/compliance/tables/fetch",
            poem::post(super::compliance_admin::fetch),
        )
        .at(
            "/admin/channels",
            poem::get(super::channels_admin::channels),
        )
        .at(
            "/admin/channels/sync",
            poem::post(super::channels_admin::resend),
        )
        .at(
            "/admin/channels/mapping",
            poem::post(super::channels_admin::map),
        )
        .at("/admin/outbox", poem::get(super::outbox_admin::list))
        .at("/reports", poem::get(super::reports::occupancy))
        .at("/reports/occupancy.csv", poem::get(super::reports::csv))
        .at("/reports/guests", poem::get(super::guest_list::show))
        .at("/reports/istat", poem::get(super::istat::show))
        .at("/reports/city-tax", poem::get(super::city_tax::show))
        .at("/reports/istat.csv", poem::get(super::istat::csv))
        .at(
            "/reports/istat/ross1000.xml",
            poem::get(super::istat::ross1000_file),
        )
        .at(
            "/day-close",
            poem::get(super::day_close::show).post(super::day_close::close),
        )
        .at("/day-closes", poem::get(super::day_certificate::list))
        .at("/compliance/calendar", poem::get(super::calendar::show))
        .at(
            "/compliance/receipts/:date",
            poem::get(super::calendar::receipt),
        )
        .at(
            "/compliance/inspection-pack",
            poem::get(super::calendar::pack),
        )
        .at("/day-closes/:date", poem::get(super::day_certificate::show))
        .at(
            "/admin/wording",
            poem::get(super::wording_admin::show).post(super::wording_admin::save),
        )
        .at(
            "/pre-check-in/:token",
            poem::get(super::pre_check_in::show).post(super::pre_check_in::send),
        )
        .at("/admin/outbox/:id", poem::post(super::outbox_admin::again))
        .at(
            "/admin/webhooks",
            poem::get(super::webhooks_admin::list).post(super::webhooks_admin::add),
        )
        .at("/admin/webhooks/:id", poem::get(super::webhooks_admin::one))
        .at(
            "/admin/webhooks/:id/:action",
            poem::post(super::webhooks_admin::act),
        )
        .at(
            "/admin/webhooks/:id/deliveries/:delivery",
            poem::post(super::webhooks_admin::redeliver),
        )
        .at(
            "/admin/clients",
            poem::get(super::clients_admin::list).post(super::clients_admin::add),
        )
        .at(
            "/admin/clients/device",
            poem::post(super::devices_admin::device),
        )
        .at("/admin/kiosks", poem::get(super::devices_admin::kiosks))
        .at(
            "/admin/kiosks/unpair",
            poem::post(super::devices_admin::unpair),
        )
        .at("/admin/clients/:id", poem::get(super::clients_admin::one))
        .at(
            "/admin/clients/:id/:action",
            poem::post(super::clients_admin::act),
        )
        .at(
            "/admin/rooms",
            poem::get(super::rooms_admin::list).post(super::rooms_admin::add_room),
        )
        .at(
            "/admin/rooms/:id",
            poem::get(super::rooms_admin::room_page).post(super::rooms_admin::save_room),
        )
        .at(
            "/admin/rates",
            poem::get(super::rates_admin::show).post(super::rates_admin::save),
        )
        .at(
            "/admin/room-types",
            poem::post(super::rooms_admin::add_type),
        )
        .at(
            "/admin/room-types/:id",
            poem::get(super::rooms_admin::type_page).post(super::rooms_admin::save_type),
        )
        .at(
            "/admin/settings",
            poem::get(super::settings::show).post(super::settings::save),
        )
        .at(
            "/admin/staff",
            poem::get(super::staff::list).post(super::staff::add),
        )
        .at("/admin/staff/:id", poem::get(super::staff::member))
        .at("/admin/staff/:id/:action", poem::post(super::staff::act))
        .at("/account/language", poem::post(super::account::language))
        .at(
            "/account/password",
            poem::get(super::account::show).post(super::account::change),
        )
        .at("/invoices/:id", poem::get(super::invoice::invoice))
        .at(
            "/invoices/new",
            poem::get(super::sale::page_of).post(super::sale::submit),
        )
        .at(
            "/invoices/:id/payments",
            poem::post(super::invoice_actions::pay),
        )
        .at(
            "/invoices/:id/credit-note",
            poem::post(super::invoice_actions::credit_note),
        )
        .at(
            "/invoices/:id/reissue",
            poem::post(super::invoice_reissue::reissue),
        )
        .at(
            "/invoices/:id/payment-method",
            poem::post(super::invoice_actions::payment_method),
        )
        .at(
            "/invoices/:id/einvoice.xml",
            poem::get(super::invoice_actions::einvoice),
        )
        .at("/assets/desk.js", poem::get(super::files::script))
        .at("/assets/htmx-2.0.11.min.js", poem::get(super::files::htmx))
        .at(
            "/reservations/:id/charges",
            poem::post(super::stay_actions::add_charge),
        )
        .at(
            "/reservations/:id/extras",
            poem::post(super::stay_actions::add_extra),
        )
        .at(
            "/reservations/:id/deposit",
            poem::post(super::deposits::record),
        )
        .at(
            "/reservations/:id/change",
            poem::post(super::reservation_change::change),
        )
        .at(
            "/reservations/:id/companions",
            poem::post(super::stay_actions::add_companion),
        )
        .at(
            "/reservations/:id/messages",
            poem::post(super::messages::again),
        )
        .at(
            "/reservations/:id/cancel",
            poem::post(super::stay_actions::cancel),
        )
        .at(
            "/reservations/:id/no-show",
            poem::post(super::stay_actions::no_show),
        )
        .at(
            "/reservations/:id/undo-check-in",
            poem::post(super::stay_actions::undo_check_in),
        )
        .at("/guests", poem::get(super::guests::guests))
        .at("/places", poem::get(super::places::places))
        .at(
            "/guests/:id",
            poem::get(super::guests::guest).post(super::guest_edit::save),
        )
        .at("/guests/:id/edit", poem::get(super::guest_edit::edit))
        .at(
            "/guests/:id/export",
            poem::post(super::guest_privacy::export),
        )
        .at("/guests/:id/erase", poem::post(super::guest_privacy::erase))
        .at("/login", poem::get(super::sign_in::login))
        .at(
            "/welcome",
            poem::get(super::welcome::page_of).post(super::welcome::submit),
        )
        .at("/login/callback", poem::get(super::sign_in::callback))
        .at("/logout", poem::post(super::sign_in::logout))
        .at("/assets/desk.css", poem::get(super::files::style))
}
