# innkeep front desk: English. Every visible string of the desk pages is here; the other
# catalogues have exactly the same keys (a test checks it).

app-name = innkeep
nav-today = Today
nav-board = Room board
nav-new-reservation = New reservation
nav-guests = Guests
nav-sign-out = Sign out
nav-main = Main navigation
signed-in-as = Signed in as { $name } ({ $role })
role-admin = administrator
role-manager = manager
role-front_desk = front desk
role-housekeeping = housekeeping
skip-to-content = Skip to the page

login-failed-title = Sign-in did not finish
login-failed-unknown = This sign-in link is not one this browser started, or it took longer than 10 minutes. Sign in again.
login-failed-refused = The sign-in was refused: { $reason }
login-failed-denied = You chose not to sign in.
login-again = Sign in again
request-refused-title = Please try again
request-refused-csrf = This form expired or did not come from this page. Reload the page and try again; what you typed is still in the form.
request-refused-origin = This request came from another website, so it was refused.
server-error-title = Something went wrong
server-error = The server could not do this. Try again; if it keeps happening, tell whoever looks after innkeep.
forbidden-title = Not for your role
forbidden = Your role cannot open this page. Ask whoever runs innkeep if you need it.

today-title = Today
today-heading = { $date }
count-arrivals = { $count ->
    [one] 1 arrival
   *[other] { $count } arrivals
}
count-in-house = { $count ->
    [one] 1 room in use
   *[other] { $count } rooms in use
}
count-departures = { $count ->
    [one] 1 departure
   *[other] { $count } departures
}
count-free = { $count ->
    [one] 1 room free tonight
   *[other] { $count } rooms free tonight
}
count-dirty = { $count ->
    [one] 1 room to clean
   *[other] { $count } rooms to clean
}
arrivals-heading = Arriving, not yet checked in
in-house-heading = Staying tonight
departures-heading = Leaving today
col-guest = Guest
col-party = Party
col-nights = Nights
col-room-type = Room type
col-room = Room
col-departure = Leaves
col-code = Booking
col-action = Next step
party = { $adults ->
    [one] 1 adult
   *[other] { $adults } adults
}{ $children ->
    [0] {""}
    [one] , 1 child
   *[other] , { $children } children
}
nights = { $count ->
    [one] 1 night
   *[other] { $count } nights
}
room-unassigned = not assigned
action-check-in = Check in
action-check-out = Check out
action-open = Open
none-arrivals = Nobody else is due today.
none-in-house = No room is in use.
none-departures = Nobody is due to leave today.

reservation-title = Booking { $code }
reservation-heading = { $guest }, booking { $code }
not-found-title = Not found
not-found-reservation = There is no booking with this reference. It may have been typed wrong; find it on Today.
back-to-today = Back to Today
field-status = Status
field-stay = Stay
field-party = Party
field-room-type = Room type
field-room = Room
field-rate = Rate per night
field-source = Booked through
field-notes = Notes
status-confirmed = confirmed
status-checked_in = checked in
status-checked_out = checked out
status-cancelled = cancelled
status-no_show = no-show
stay-dates = { $arrival } to { $departure } ({ $nights })
guests-heading = Guests
folio-heading = Folio
folio-empty = No charges yet.
col-date = Date
col-description = Description
col-quantity = Qty
col-amount = Amount
history-heading = History
history-empty = No history yet.
history-by = { $when }, { $who }
history-change = { $field }: { $from } → { $to }
history-empty-value = (none)
history-reservation-created = Booked
history-reservation-updated = Changed
history-reservation-cancelled = Cancelled
history-reservation-no_show = Marked as no-show
history-reservation-checked_in = Checked in
history-reservation-checked_out = Checked out
history-reservation-charge_added = Charge added
guests-title = Guests
guests-search-label = Name
guests-search-button = Search
guests-none = No guest has this name. Check the spelling, or search for part of it.
guests-found = { $count ->
    [one] 1 guest
   *[other] { $count } guests
}
col-email = E-mail
col-phone = Phone
col-nationality = Nationality
guest-heading = { $name }
guest-details = Details
field-email = E-mail
field-phone = Phone
field-birth-date = Date of birth
field-nationality = Nationality
field-document = Document
field-address = Address
not-given = not given
stays-heading = Stays
stays-none = No stays yet.
col-arrival = Arrives
col-status = Status
not-found-guest = There is no guest with this reference. Search for them by name.
back-to-guests = Back to Guests
guest-edit-title = Change { $name }
guest-edit-link = Change details
guest-edit-save = Save
guest-edit-cancel = Cancel
guest-edit-errors = { $count ->
    [one] 1 field needs attention; it is marked below. Nothing was saved yet.
   *[other] { $count } fields need attention; they are marked below. Nothing was saved yet.
}
guest-edit-conflict = Someone else changed this guest while you were typing. Your changes are still in the form: check them against the current details, then save again.
field-first-name = First name
field-last-name = Last name
field-document-type = Document type
field-document-number = Document number
field-document-country = Issued by (country code, such as IT)
field-document-expiry = Valid until
field-line1 = Street and number
field-line2 = Address, second line
field-region = Region, province or county
field-document-place = Issued at (office or town)
field-city = Town or city
field-postal-code = Postal code
field-country = Country (code, such as HR)
field-notes-staff = Notes for staff
hint-date = YYYY-MM-DD
hint-country = two letters, such as IT or HR
document-passport = Passport
document-id_card = Identity card
document-driving_license = Driving licence
document-other = Other
document-none = No document
error-document-type = Choose the kind of document for this number.
