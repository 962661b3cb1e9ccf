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
field-nationality = Nationality (country code, such as IT)
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
field-gender = Gender (as on the document)
field-birth-country = Country of birth (code, such as IT)
field-birth-municipality = Town of birth
field-birth-region = Province or county of birth
gender-none = Not recorded
gender-male = Male
gender-female = Female
gender-other = Other
error-gender = Choose the gender as it is on the guest's document.
flash-checked-in = Checked in. The room is the guest's.
flash-checked-out = Checked out. The invoice is below, ready to print.
flash-charge-added = The charge is on the folio.
flash-cancelled = The booking is cancelled. Its room is free again.
flash-no-show = Marked as a no-show. Its room is free again.
flash-paid = The payment is recorded.
flash-booked = Booked. The confirmation code is at the top.
flash-guest-saved = The guest's details are saved.
field-registration = Guest registration
submission-queued = waiting to be sent
submission-sending = being sent
submission-accepted = accepted by the authority
submission-rejected = refused by the authority: correct and send again
submission-retrying = authority not reachable yet; trying again
action-check-in = Check in
action-check-out = Check out
action-invoice = Invoice
action-cancel = Cancel booking
action-no-show = Mark as no-show
action-add-charge = Add charge
confirm-cancel-label = Yes, cancel it
confirm-no-show-label = Yes, the guest did not come
confirm-cancelled = Tick “Yes, cancel it” first, so a booking is never cancelled by a slip of the hand.
confirm-no-show = Tick “Yes, the guest did not come” first, so nobody is marked a no-show by a slip of the hand.
field-charge-description = Charge for
field-charge-quantity = How many
field-charge-price = Price each, tax included
error-amount = Write an amount such as 12.50.
reservation-changed-meanwhile = Someone else changed this booking meanwhile. Here it is as it is now; try again.
form-errors = { $count ->
    [one] One thing needs correcting; it is marked below.
   *[other] { $count } things need correcting; they are marked below.
}
submission-unknown = outcome unknown; the authority is being asked
submission-manual_required = needs to be sent by hand (see the compliance centre)
check-in-title = Check in { $guest } · { $code }
check-in-room = The room
check-in-no-room = No room of this type is free and in service now. Free one on the room board, or change the booking's room type.
check-in-registration-of = Registration details of
check-in-guest-changed = Someone else changed a guest's details meanwhile. The page shows what you typed; check it and check in again.
check-in-registration-missing = { $count ->
    [one] The guest registration needs one more detail; it is marked below. Complete it and check in again.
   *[other] The guest registration needs { $count } more details; they are marked below. Complete them and check in again.
}
back-to-reservation = Back to the booking
housekeeping-clean = clean
housekeeping-dirty = to be cleaned
housekeeping-inspected = inspected
housekeeping-out_of_order = out of order
check-out-title = Check out · { $code }
check-out-bill = The bill
check-out-issue = Check out and issue the invoice
col-unit-price = Price each
total-to-pay = Total
field-payment-method = Paid by
payment-choose = Choose how the guest pays
payment-cash = Cash
payment-card = Card
payment-bank_transfer = Bank transfer
payment-other = Other
error-payment-method = Choose how the guest pays.
not-found-invoice = There is no such invoice. It may have been typed wrong.
invoice-title-invoice = Invoice { $number }
invoice-title-credit_note = Credit note { $number }
invoice-date = Date
invoice-paid = Paid so far
invoice-owed = Still to pay
invoice-status-issued = issued, not paid in full
invoice-status-paid = paid
invoice-status-cancelled = cancelled by a credit note
invoice-tax-id = Tax number { $id }
invoice-bill-to = Bill to
invoice-lines = What is billed
invoice-taxes = Taxes included
invoice-print = Print
invoice-layout-a4 = A4 page layout
invoice-layout-receipt = 80 mm receipt layout
invoice-back-to-stay = Back to booking
col-tax-rate = Tax rate
col-net = Net
col-tax = Tax
fiscal-heading = Fiscal receipt
fiscal-status = Fiscal status
fiscal-status-not_required = not required
fiscal-status-pending = being sent to the tax authority
fiscal-status-offline = the tax authority is not reachable; it is sent again on its own
fiscal-status-fiscalized = confirmed by the tax authority
fiscal-status-failed = refused by the tax authority: see the compliance centre
fiscal-receipt = Receipt number
fiscal-zki = Protective code (ZKI)
fiscal-jir = Unique receipt identifier (JIR)
fiscal-jir-pending = on its way from the tax authority
fiscal-qr = QR code to check this receipt with the tax authority
field-payment-amount = Amount received
action-record-payment = Record payment
col-next = Next
check-out-early = The guest leaves early: the bill counts { $nights }, not the { $booked } booked.
nav-new = New booking
new-title = New booking
new-step-stay = 1. When, and how many
new-step-type = 2. Room type
new-step-guest = 3. Guest
new-step-confirm = 4. Book
new-show-free = Show free rooms
new-no-room-types = There are no room types yet. An administrator sets them up first.
new-find-guest = Find a guest by name
new-find = Find
new-no-guest-found = No guest has this name yet. Fill in a new guest below.
new-guest-new = A new guest:
new-book = Book
field-arrival = Arrival
field-departure = Departure
field-adults = Adults
field-children = Children
field-room-optional = Room (you may leave this for check-in)
room-decide-later = Decide at check-in
free-rooms = { $count ->
    [0] none free on all these nights
    [one] 1 room free on all these nights
   *[other] { $count } rooms free on all these nights
}
free-rooms-unknown = choose valid dates to see what is free
rate-per-night = { $rate } a night
booking-choose-guest = Choose a guest from the list, or fill in a new guest.
booking-already-sent = This booking form was already sent and is being handled. Look for the booking on Today before booking again.
source-direct = Direct
source-phone = Phone
source-email = E-mail
source-walk_in = Walk-in
source-ota = Booking site
source-other = Other
nav-board = Room board
board-title = Room board, { $from } to { $to }
board-nav = Move the board
board-week-back = ‹ Week
board-day-back = ‹ Day
board-today = Today
board-day-on = Day ›
board-week-on = Week ›
board-jump = Go to date
board-go = Show
board-book = Book room
board-unassigned = Without a room
board-no-rooms = There are no rooms yet. An administrator sets them up first.
board-bad-date = That date could not be read; the board shows today. Use the date picker, or write it as 2026-11-23.
error-registration-required = The guest registration needs this.
col-bill = Bill so far
bill-note = The bill so far counts the booked nights and the charges not yet invoiced; the city tax is added at check-out.
flash-changed = The booking is changed.
change-summary = Change dates or room
change-save = Save the change
col-registration = Registration
registration-complete = ready
registration-missing = to complete: { $fields }
board-more-unassigned = { $count ->
    [one] and 1 more booking without a room in these nights: this room type is booked beyond its rooms.
   *[other] and { $count } more bookings without a room in these nights: this room type is booked beyond its rooms.
}
nav-housekeeping = Housekeeping
hk-title = Housekeeping
hk-heading-dirty = To be cleaned ({ $count })
hk-heading-inspected = Inspected ({ $count })
hk-heading-clean = Clean ({ $count })
hk-heading-out_of_order = Out of order ({ $count })
hk-none = No rooms.
hk-occupied = guest in
hk-empty = empty
hk-mark-clean = Cleaned
hk-mark-inspected = Inspected
hk-mark-dirty = Needs cleaning
hk-mark-ooo = Out of order
hk-back-in-service = Back in service
hk-unknown-state = That is not a room state innkeep knows. Use the buttons on this page.
hk-changed-meanwhile = Someone else changed this room a moment ago. Here is how it stands now; tap again if still needed.
not-found-room = There is no such room.
flash-room-changed = Done. The room's state is saved.
nav-invoices = Invoices
invoices-title = Invoices
invoices-from = Issued from
invoices-to = Issued to
invoices-any-status = Any status
invoices-show = Show
invoices-summary = { $count ->
    [one] 1 invoice issued from { $from } to { $to }.
   *[other] { $count } invoices issued from { $from } to { $to }.
}
invoice-kind-invoice = Invoice
invoice-kind-credit_note = Credit note
col-number = Number
col-kind = Kind
error-date = Write a date such as 2026-11-23, or use the date picker.
flash-credited = The invoice is reversed. This is its credit note, ready to print.
invoice-reverses = Reverses invoice { $number }
invoice-reversed-by = Reversed by credit note { $number }
credit-note-open = Reverse this invoice with a credit note
credit-note-explain = A credit note cancels the whole invoice: it is issued with its own number and sent to the tax authority like any invoice. Issue a new invoice afterwards if the guest still owes something.
field-credit-reason = Why it is reversed
credit-note-confirm = Yes, reverse invoice { $number } in full
action-credit-note = Issue the credit note
error-reason = Write why the invoice is reversed; it is printed on the credit note.
error-confirm = Tick the box to confirm; a credit note cannot be taken back.
flash-sold = The invoice is issued. It is below, ready to print.
nav-new-sale = New sale
sale-title = Sale outside a stay
sale-intro = Bill a guest for something that is not part of a stay: a dinner, a parking ticket, a voucher.
sale-find-guest = Guest's name
sale-no-guest-found = No guest has that name. Add them under Guests first, or check the spelling.
sale-choose = Choose
sale-bill-guest = Bill this guest
sale-billed-to = Billed to
sale-other-guest = another guest
sale-lines = What is sold
sale-tax-rate = Tax rate %
sale-line-field = Line { $line }, { $field }
sale-tax-hint = Leave the tax rate empty for the property's usual rate. Empty lines are left out.
sale-add-line = Add a line
sale-issue = Issue the invoice
sale-already-sent = This sale was already sent and is still being issued. Look at the invoices list before sending it again.
error-tax-rate = Write a rate such as 10 or 9.5.
error-sale-lines = Fill in at least one line: what it is, how many, and the price each.
error-sale-guest = Choose the guest to bill.
invoices-new-sale = New sale
invoice-reason = Reason
invoices-for-guest = For { $name }
invoices-all-guests = all guests
guest-invoices = Invoices
guest-new-sale = Bill a sale
nav-admin = Administration
nav-staff = Staff
nav-my-password = My password
admin-title = Administration
admin-staff-about = Who may sign in and what each person may do: add staff, change a role, reset a forgotten password, disable someone who has left.
staff-title = Staff
staff-role = Role
staff-active = can sign in
staff-disabled-since = disabled since { $day }
staff-added-on = Added
staff-add = Add a staff member
staff-add-about = They get a password made for them, shown once on the next page; give it to them, and they can change it under "My password".
staff-add-button = Add and make a password
field-username = User name
error-role = Choose one of the roles in the list.
not-found-staff = There is no such staff member.
staff-this-is-you = This is you. Another admin can change your role; your password you change yourself:
staff-change-role = Change the role
staff-change-ends-sessions = Changing the role, resetting the password or disabling signs this person out everywhere; they sign in again with what they may do now.
staff-confirm-reset = Yes, make a new password
staff-reset-password = Reset the password
staff-confirm-disable = Yes, they may no longer sign in
staff-disable = Disable
staff-confirm-enable = Yes, they may sign in again
staff-enable = Enable
staff-confirm = Tick the box next to the button first, to confirm.
staff-added-title = { $name } is added
staff-reset-title = A new password for { $name }
password-once = This is { $name }'s password. Give it to them now: it is shown only this once, and innkeep keeps only a scrambled form of it that nobody can read back.
password-label = The password
password-once-after = Lost it? Reset the password again on the staff member's page.
password-done = Done, back to the staff member
flash-staff-role = The role is changed. They will sign in again.
flash-staff-disabled = Disabled. They are signed out and can no longer sign in.
flash-staff-enabled = Enabled. They can sign in again with their password.
flash-password-changed = Your password is changed. Other places where you were signed in are signed out.
account-password-title = My password
account-password-about = Type the password you have now, then the new one twice. At least 10 characters; a short sentence is easy to remember and hard to guess.
field-password-current = Password now
field-password-new = New password
field-password-repeat = New password again
account-password-save = Change my password
error-password-wrong_password = This is not your password now. Type it again.
error-password-too_short = The new password needs at least 10 characters.
error-password-unchanged = The new password must differ from the one you have.
error-password-mismatch = The two new passwords differ. Type the same one twice.
sale-payment = Payment
nav-settings = The property
admin-settings-about = The hotel's name as printed on invoices, its time zone, currency and country, the invoice numbering, the usual tax rate and the city tax.
settings-title = The property
settings-name = Name, as printed on invoices
settings-time-zone = Time zone (such as Europe/Rome)
settings-currency = Currency (such as EUR)
settings-country = Country (two letters, such as IT)
settings-series = Invoice numbering ({"{"}year{"}"} is the year)
settings-tax-rate = Usual tax rate %
settings-city-tax-heading = City tax
settings-city-tax-about = Charged per guest per night at check-out, when the hotel's town asks for one.
settings-city-tax = City tax
settings-city-tax-none = not charged
settings-city-tax-charged = charged
settings-city-tax-amount = Per guest per night
settings-city-tax-rate = Tax on it % (usually empty)
settings-city-tax-max-nights = Up to this many nights (empty: every night)
settings-city-tax-exempt = Guests younger than (years, empty: nobody exempt)
settings-save = Save the settings
settings-compliance = National systems
settings-registration = Guest registration
settings-fiscal = Fiscal receipts
settings-compliance-about = These are set in the configuration file, with their certificates and passwords, so that nobody can switch them off by mistake from a browser.
scheme-none = not used
scheme-it-alloggiati = Italy, Alloggiati Web (Polizia di Stato)
scheme-hr-cis = Croatia, fiscal receipts (Porezna uprava)
settings-changed-meanwhile = Someone else saved the settings a moment ago. What you typed is still here; check it and save again.
flash-settings-saved = The settings are saved.
nav-rooms = Rooms
admin-rooms-about = Room types with their guests and rate, and the rooms: add them, change them, take a room out of order.
rooms-title = Rooms
rooms-types-heading = Room types
rooms-no-types = No room types yet. Add the first one below: a double, a single, a suite.
rooms-rooms-heading = Rooms
rooms-no-rooms = No rooms yet. Add them below, each with its number on the door.
rooms-type-code = Code
rooms-type-name = Name
rooms-type-guests = Guests at most
rooms-type-rate = Price per night
rooms-type-description = Description
rooms-number = Number on the door
rooms-type = Room type
rooms-floor = Floor
rooms-state = State
rooms-add-type = Add a room type
rooms-add-type-button = Add the room type
rooms-add-room = Add a room
rooms-add-room-button = Add the room
rooms-edit-type = Room type { $name }
rooms-edit-room = Room { $name }
rooms-save = Save
rooms-changed-meanwhile = Someone else changed this a moment ago. What you typed is still here; check it and save again.
flash-room-type-added = The room type is added.
flash-room-room-added = The room is added.
flash-room-type-saved = The room type is saved.
flash-room-room-saved = The room is saved.
