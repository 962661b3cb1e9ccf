# innkeep, recepcija: hrvatski. Isti ključevi kao engleski katalog (test to provjerava).

app-name = innkeep
nav-today = Danas
nav-board = Raspored soba
nav-new-reservation = Nova rezervacija
nav-guests = Gosti
nav-sign-out = Odjava
nav-main = Glavna navigacija
signed-in-as = Prijavljeni ste kao { $name } ({ $role })
role-admin = administrator
role-manager = voditelj
role-front_desk = recepcija
role-housekeeping = domaćinstvo
skip-to-content = Preskoči na sadržaj

login-failed-title = Prijava nije dovršena
login-failed-unknown = Ovu prijavu nije pokrenuo ovaj preglednik ili je trajala dulje od 10 minuta. Prijavite se ponovno.
login-failed-refused = Prijava je odbijena: { $reason }
login-failed-denied = Odabrali ste da se ne prijavite.
login-again = Prijavite se ponovno
request-refused-title = Pokušajte ponovno
request-refused-csrf = Ovaj je obrazac istekao ili nije došao s ove stranice. Ponovno učitajte stranicu i pokušajte opet; ono što ste upisali još je u obrascu.
request-refused-origin = Ovaj zahtjev došao je s druge web-stranice pa je odbijen.
server-error-title = Nešto je pošlo po zlu
server-error = Poslužitelj to nije uspio napraviti. Pokušajte ponovno; ako se ponavlja, javite onome tko održava innkeep.
forbidden-title = Nije za vašu ulogu
forbidden = Vaša uloga ne može otvoriti ovu stranicu. Ako vam treba, pitajte onoga tko vodi innkeep.

today-title = Danas
today-heading = { $date }
today-vat-missing = Uobičajena stopa PDV-a na smještaj je 0 %: računi bi išli bez PDV-a. Zamolite administratora da je postavi.
today-vat-missing-admin = Uobičajena stopa PDV-a na smještaj je 0 %: računi bi išli bez PDV-a. Postavite je pod
count-arrivals = { $count ->
    [one] { $count } dolazak
    [few] { $count } dolaska
   *[other] { $count } dolazaka
}
count-in-house = { $count ->
    [one] { $count } soba zauzeta
    [few] { $count } sobe zauzete
   *[other] { $count } soba zauzeto
}
count-departures = { $count ->
    [one] { $count } odlazak
    [few] { $count } odlaska
   *[other] { $count } odlazaka
}
count-free = { $count ->
    [one] { $count } soba slobodna noćas
    [few] { $count } sobe slobodne noćas
   *[other] { $count } soba slobodno noćas
}
count-dirty = { $count ->
    [one] { $count } soba za čišćenje
    [few] { $count } sobe za čišćenje
   *[other] { $count } soba za čišćenje
}
arrivals-heading = Dolaze, još nisu prijavljeni
in-house-heading = Noćas u kući
departures-heading = Odlaze danas
col-guest = Gost
col-booking = Rezervacija
reservations-title = Rezervacije
reservations-any = Sve
reservations-from = Noćenja od
reservations-to = do
reservations-summary = { $count ->
    [one] { $count } rezervacija
    [few] { $count } rezervacije
   *[other] { $count } rezervacija
} s noćenjem od { $from } do { $to }
reservations-all = Sve rezervacije
col-party = Osobe
col-nights = Noći
col-room-type = Vrsta sobe
col-room = Soba
col-departure = Odlazi
col-code = Rezervacija
col-action = Sljedeći korak
party = { $adults ->
    [one] { $adults } odrasla osoba
    [few] { $adults } odrasle osobe
   *[other] { $adults } odraslih
}{ $children ->
    [0] {""}
    [one] , { $children } dijete
    [few] , { $children } djece
   *[other] , { $children } djece
}
nights = { $count ->
    [one] { $count } noć
    [few] { $count } noći
   *[other] { $count } noći
}
room-unassigned = nije dodijeljena
action-check-in = Prijava gosta
action-check-out = Odjava gosta
action-open = Otvori
none-arrivals = Danas se više nitko ne očekuje.
none-in-house = Nijedna soba nije zauzeta.
none-departures = Danas nitko ne odlazi.

reservation-title = Rezervacija { $code }
reservation-heading = { $guest }, rezervacija { $code }
not-found-title = Nije pronađeno
not-found-reservation = Nema rezervacije s ovom oznakom. Možda je krivo upisana; potražite je pod Danas.
back-to-today = Natrag na Danas
field-status = Stanje
field-stay = Boravak
field-party = Osobe
field-room-type = Vrsta sobe
field-room = Soba
field-rate = Cijena po noći
field-rate-note = Razlog cijene
error-rate-note = upišite zašto se cijena mijenja (npr. „popust za dulji boravak”); ostaje u povijesti
field-source = Kanal rezervacije
field-notes = Napomene
status-confirmed = potvrđena
status-checked_in = u kući
status-checked_out = otišao
status-cancelled = otkazana
status-no_show = nije došao
stay-dates = od { $arrival } do { $departure } ({ $nights })
guests-heading = Gosti
folio-heading = Račun sobe
folio-empty = Još nema terećenja.
col-date = Datum
col-description = Opis
col-quantity = Kol.
col-amount = Iznos
history-heading = Povijest
history-empty = Još nema povijesti.
history-by = { $when }, { $who }
history-change = { $field }: { $from } → { $to }
history-empty-value = (ništa)
history-field-guests = Gosti
history-reservation-created = Rezervirano
history-reservation-updated = Promijenjeno
history-reservation-cancelled = Otkazano
history-reservation-no_show = Označeno: nije došao
history-reservation-checked_in = Gost prijavljen
history-reservation-checked_out = Gost odjavljen
history-reservation-charge_added = Dodano terećenje
guests-title = Gosti
guests-search-label = Ime, e-pošta ili kôd rezervacije
guests-search-button = Traži
guests-none = Nijedan gost nema to ime ili e-poštu. Provjerite kako je napisano ili tražite dio imena.
guests-booking-found = Rezervacija
guests-found = { $count ->
    [one] { $count } gost
    [few] { $count } gosta
   *[other] { $count } gostiju
}
col-email = E-pošta
col-phone = Telefon
col-nationality = Državljanstvo
guest-heading = { $name }
guest-details = Podaci
field-email = E-pošta
field-phone = Telefon
field-birth-date = Datum rođenja
field-nationality = Državljanstvo (država)
field-document = Isprava
field-address = Adresa
not-given = nije navedeno
stays-heading = Boravci
stays-none = Još nema boravaka.
col-arrival = Dolazi
col-status = Stanje
not-found-guest = Nema gosta s ovom oznakom. Potražite ga po imenu.
back-to-guests = Natrag na goste
guest-edit-title = Izmjena: { $name }
guest-edit-link = Izmijeni podatke
guest-edit-save = Spremi
guest-edit-cancel = Odustani
guest-edit-errors = { $count ->
    [one] { $count } polje treba provjeriti; označeno je ispod. Ništa još nije spremljeno.
    [few] { $count } polja treba provjeriti; označena su ispod. Ništa još nije spremljeno.
   *[other] { $count } polja treba provjeriti; označena su ispod. Ništa još nije spremljeno.
}
guest-edit-conflict = Netko drugi je promijenio ovog gosta dok ste pisali. Vaše su izmjene još u obrascu: usporedite ih s trenutačnim podacima pa ponovno spremite.
field-first-name = Ime
field-last-name = Prezime
field-document-type = Vrsta isprave
field-document-number = Broj isprave
field-document-country = Izdala (država)
field-document-expiry = Vrijedi do
field-line1 = Ulica i kućni broj
field-line2 = Adresa, drugi red
field-region = Regija, pokrajina ili županija
field-document-place = Mjesto izdavanja (ured ili grad)
field-city = Mjesto ili grad
field-postal-code = Poštanski broj
field-country = Država
field-notes-staff = Napomene za osoblje
hint-date = GGGG-MM-DD
hint-date-typed = dd.mm.gggg.
error-date-typed = upišite datum kao 15.03.1980.
hint-country = dva slova, npr. IT ili HR
document-passport = Putovnica
document-id_card = Osobna iskaznica
document-driving_license = Vozačka dozvola
document-other = Drugo
document-none = Bez isprave
error-document-type = Odaberite vrstu isprave za ovaj broj.
field-gender = Spol (kao u ispravi)
field-birth-country = Država rođenja
field-birth-municipality = Mjesto rođenja
field-birth-region = Pokrajina ili županija rođenja
gender-none = Nije upisano
gender-male = Muški
gender-female = Ženski
gender-other = Drugo
error-gender = Odaberite spol kako piše u gostovoj ispravi.
flash-checked-in = Gost je prijavljen. Soba je njegova.
flash-checked-out = Gost je odjavljen. Račun je ispod, spreman za ispis.
flash-charge-added = Terećenje je na računu sobe.
flash-companion-added = Suputnik je dodan. Podaci za prijavu traže se pri prijavi gosta.
flash-cancelled = Rezervacija je otkazana. Soba je opet slobodna.
flash-no-show = Označeno da gost nije došao. Soba je opet slobodna.
flash-paid = Uplata je evidentirana.
flash-refunded = Povrat je evidentiran.
flash-booked = Rezervirano. Potvrdni kod je na vrhu.
flash-guest-saved = Podaci gosta su spremljeni.
field-registration = Prijava boravka
submission-queued = čeka slanje
submission-sending = šalje se
submission-accepted = prihvatilo tijelo vlasti
submission-rejected = odbilo tijelo vlasti: ispravite i pošaljite ponovno
submission-retrying = tijelo vlasti još nije dostupno; pokušava se ponovno
action-invoice = Račun
action-cancel = Otkaži rezervaciju
action-no-show = Označi da nije došao
action-add-charge = Dodaj terećenje
confirm-cancel-label = Da, otkaži je
confirm-no-show-label = Da, gost nije došao
confirm-cancelled = Najprije označite „Da, otkaži je”, da se rezervacija nikad ne otkaže slučajno.
confirm-no-show = Najprije označite „Da, gost nije došao”, da nitko ne bude slučajno označen kao da nije došao.
field-charge-description = Terećenje za
field-charge-quantity = Količina
field-charge-price = Jedinična cijena s PDV-om
field-charge-vat = PDV
error-amount = Upišite iznos, npr. 12,50.
error-country = Odaberite državu s popisa ili upišite njezin naziv.
reservation-changed-meanwhile = Netko drugi je u međuvremenu promijenio ovu rezervaciju. Evo kako sada izgleda; pokušajte ponovno.
form-errors = { $count ->
    [one] { $count } stvar treba ispraviti; označena je ispod.
    [few] { $count } stvari treba ispraviti; označene su ispod.
   *[other] { $count } stvari treba ispraviti; označene su ispod.
}
submission-unknown = ishod nepoznat; provjerava se kod tijela vlasti
submission-manual_required = treba poslati ručno (vidi centar za usklađenost)
check-in-title = Prijava gosta { $guest } · { $code }
check-in-room = Soba
check-in-no-room = Nijedna soba ove vrste trenutačno nije slobodna i u funkciji. Oslobodite jednu u rasporedu ili promijenite vrstu sobe u rezervaciji.
check-in-registration-of = Podaci za prijavu boravka:
check-in-companion = Dodaj suputnika
welcome-title = Dobro došli u innkeep
welcome-intro = Ovaj innkeep je nov. Upišite podatke o hotelu i napravite prvog administratora; sve se kasnije može promijeniti u Administraciji.
welcome-code-legend = Kôd s konzole
welcome-code = Jednokratni kôd
welcome-code-hint = innkeep ga je pri pokretanju ispisao u prozoru u kojem radi (ili u dnevniku servisa): osam slova poput BDKT-QWMX. Time se dokazuje da ste za ovim računalom.
welcome-property = Hotel
welcome-name = Naziv (ispisuje se na računima)
welcome-country = Država
welcome-time-zone = Vremenska zona (prazno: zona države)
welcome-currency = Valuta (prazno: EUR)
welcome-tax-rate = PDV na smještaj, % (prazno: 13 u Hrvatskoj, 10 u Italiji)
welcome-rooms = Vrste soba i sobe
welcome-rooms-hint = Jedan red po vrsti sobe; redove koji vam ne trebaju ostavite prazne.
welcome-rt-code = Oznaka (npr. DBL)
welcome-rt-name = Naziv (npr. Dvokrevetna soba)
welcome-rt-guests = Najviše gostiju u sobi
welcome-rt-rate = Cijena noćenja
welcome-rt-rooms = Brojevi soba (npr. 101-112, 201)
welcome-admin = Prvi administrator
welcome-username = Korisničko ime
welcome-password = Lozinka (najmanje 10 znakova)
welcome-password-again = Ponovite lozinku
welcome-submit = Postavi innkeep i prijavi se
welcome-other-origin = Ovaj obrazac treba poslati s innkeepove stranice. Ponovno otvorite innkeepovu adresu i ispunite ga ondje.
check-in-companion-hint = Osoba koja boravi u istoj sobi. Upišite ime i podatke za prijavu; spremaju se prijavom gosta ili gumbom „Dodaj suputnika”.
action-add-companion = Dodaj suputnika
guest-role-single = samostalni gost
guest-role-family-head = nositelj obitelji
guest-role-group-leader = voditelj grupe
guest-role-family-member = član obitelji
guest-role-group-member = član grupe
check-in-guest-changed = Netko drugi je u međuvremenu promijenio podatke gosta. Stranica prikazuje ono što ste upisali; provjerite i ponovno prijavite gosta.
check-in-registration-missing = { $count ->
    [one] Za prijavu boravka nedostaje još { $count } podatak; označen je ispod. Dopunite ga i ponovno prijavite gosta.
    [few] Za prijavu boravka nedostaju još { $count } podatka; označeni su ispod. Dopunite ih i ponovno prijavite gosta.
   *[other] Za prijavu boravka nedostaje još { $count } podataka; označeni su ispod. Dopunite ih i ponovno prijavite gosta.
}
back-to-reservation = Natrag na rezervaciju
housekeeping-clean = čista
housekeeping-dirty = za čišćenje
housekeeping-inspected = pregledana
housekeeping-out_of_order = izvan funkcije
check-out-title = Odjava gosta · { $code }
check-out-bill = Račun
check-out-issue = Odjavi gosta i izdaj račun
col-unit-price = Jedinična cijena
total-to-pay = Ukupno
field-payment-method = Način plaćanja
payment-choose = Odaberite kako gost plaća
payment-cash = Gotovina
payment-card = Kartica
payment-bank_transfer = Virman
payment-other = Drugo
error-payment-method = Odaberite kako gost plaća.
not-found-invoice = Taj račun ne postoji. Možda je oznaka krivo upisana.
invoice-title-invoice = Račun { $number }
invoice-title-credit_note = Storno račun { $number }
invoice-date = Datum
invoice-paid = Dosad plaćeno
invoice-owed = Preostalo za platiti
invoice-refunded = Dosad vraćeno
invoice-to-refund = Još za vratiti
invoice-status-issued = izdan, nije plaćen u cijelosti
invoice-status-paid = plaćen
invoice-status-cancelled = storniran
invoice-tax-id = OIB { $id }
invoice-bill-to = Kupac
invoice-lines = Stavke računa
invoice-taxes = Uključeni porezi
invoice-print = Ispiši
invoice-layout-a4 = Stranica A4
invoice-layout-receipt = Traka od 80 mm
invoice-back-to-stay = Natrag na rezervaciju
col-tax-rate = Stopa poreza
col-net = Osnovica
col-tax = Porez
fiscal-heading = Fiskalni račun
fiscal-status = Fiskalno stanje
fiscal-status-not_required = nije potrebno
fiscal-status-pending = šalje se Poreznoj upravi
fiscal-status-offline = Porezna uprava nije dostupna; račun se ponovno šalje sam
fiscal-status-fiscalized = potvrdila Porezna uprava
fiscal-status-failed = odbila Porezna uprava: vidi centar za usklađenost
fiscal-receipt = Broj računa
fiscal-zki = Zaštitni kod izdavatelja (ZKI)
fiscal-jir = Jedinstveni identifikator računa (JIR)
fiscal-jir-pending = stiže od Porezne uprave
fiscal-qr = QR kod za provjeru računa kod Porezne uprave
field-payment-amount = Primljeni iznos
check-out-paid-now = Plaćanje
check-out-split = Podijeljeno: drugi iznos (neobavezno)
check-out-pay-later = Plaća kasnije (račun tvrtki, virman): bez plaćanja sada
action-record-payment = Evidentiraj uplatu
action-record-refund = Evidentiraj povrat
col-next = Sljedeće
check-out-early = Gost odlazi ranije: račun broji { $nights }, a ne { $booked } rezerviranih.
nav-new = Nova rezervacija
new-title = Nova rezervacija
new-step-stay = 1. Kada i koliko osoba
new-step-type = 2. Vrsta sobe
new-step-guest = 3. Gost
new-step-confirm = 4. Rezerviraj
new-show-free = Prikaži slobodne sobe
new-no-room-types = Još nema vrsta soba. Najprije ih postavlja administrator.
new-find-guest = Nađi gosta po imenu
new-find = Nađi
new-no-guest-found = Još nijedan gost nema to ime. Upišite novog gosta ispod.
new-guest-new = Novi gost:
new-book = Rezerviraj
field-arrival = Dolazak
field-departure = Odlazak
field-adults = Odrasli
field-children = Djeca
field-children-ages = Dob djece
hint-children-ages = Jedna dob po djetetu, u godinama, odvojene zarezom: 4, 7
field-extra-beds = Pomoćni ležajevi
field-cots = Dječji krevetići
party-ages = dobi { $ages }
party-extra-beds = { $count ->
    [one] { $count } pomoćni ležaj
    [few] { $count } pomoćna ležaja
   *[other] { $count } pomoćnih ležajeva
}
party-cots = { $count ->
    [one] { $count } dječji krevetić
    [few] { $count } dječja krevetića
   *[other] { $count } dječjih krevetića
}
field-room-optional = Soba (možete odlučiti pri prijavi gosta)
room-decide-later = Odlučit ćemo pri prijavi
free-rooms = { $count ->
    [0] nijedna slobodna sve te noći
    [one] { $count } soba slobodna sve te noći
    [few] { $count } sobe slobodne sve te noći
   *[other] { $count } soba slobodno sve te noći
}
free-rooms-unknown = odaberite ispravne datume da vidite što je slobodno
rate-per-night = { $rate } po noći
booking-choose-guest = Odaberite gosta s popisa ili upišite novog gosta.
booking-already-sent = Ovaj obrazac rezervacije već je poslan i obrađuje se. Potražite rezervaciju pod Danas prije nego što ponovno rezervirate.
source-direct = Izravno
source-phone = Telefon
source-email = E-pošta
source-walk_in = Na recepciji
source-ota = Portal za rezervacije
source-other = Drugo
board-title = Raspored soba, od { $from } do { $to }
board-nav = Pomakni raspored
board-week-back = ‹ Tjedan
board-day-back = ‹ Dan
board-today = Danas
board-day-on = Dan ›
board-week-on = Tjedan ›
board-jump = Idi na datum
board-go = Prikaži
board-book = Rezerviraj sobu
board-unassigned = Bez sobe
board-free = Slobodne sobe
board-move-how = Boravak premještate tako da njegovu traku povučete na drugu sobu ili noć; ili je odaberite, pritisnite M, strelicama odaberite sobu i noć i pritisnite Enter (Esc odustaje). Rezervacija bez sobe dobiva je na isti način.
board-move-picked = Premještanje boravka. Strelice biraju sobu i prvu noć, Enter ga premješta, Esc odustaje.
board-move-cancelled = Premještanje otkazano.
board-move-in-house = Gosti su u kući: mijenja se samo soba, ne i noći.
board-no-rooms = Još nema soba. Najprije ih postavlja administrator.
board-bad-date = Taj se datum ne može pročitati; raspored prikazuje danas. Upotrijebite kalendar ili ga upišite kao 2026-11-23.
error-registration-required = Prijava boravka traži ovaj podatak.
col-bill = Račun dosad
bill-note = Račun dosad broji rezervirane noći i terećenja koja još nisu na računu; boravišna pristojba dodaje se pri odjavi.
flash-changed = Rezervacija je promijenjena.
change-summary = Promijeni rezervaciju (datumi, soba, gosti, cijena, napomene)
change-save = Spremi promjenu
col-registration = Prijava boravka
registration-complete = spremna
registration-missing = treba dopuniti: { $fields }
board-more-unassigned = { $count ->
    [one] i još { $count } rezervacija bez sobe ovih noći: ova vrsta sobe rezervirana je iznad broja svojih soba.
    [few] i još { $count } rezervacije bez sobe ovih noći: ova vrsta sobe rezervirana je iznad broja svojih soba.
   *[other] i još { $count } rezervacija bez sobe ovih noći: ova vrsta sobe rezervirana je iznad broja svojih soba.
}
nav-housekeeping = Domaćinstvo
hk-title = Domaćinstvo
hk-heading-dirty = Za čišćenje ({ $count })
hk-heading-inspected = Pregledane ({ $count })
hk-heading-clean = Čiste ({ $count })
hk-heading-out_of_order = Izvan funkcije ({ $count })
hk-none = Nema soba.
hk-occupied = gost u sobi
hk-empty = prazna
hk-arriving = Dolazak danas
hk-mark-clean = Očišćena
hk-mark-inspected = Pregledana
hk-mark-dirty = Treba čišćenje
hk-mark-ooo = Izvan funkcije
hk-back-in-service = Opet u funkciji
hk-unknown-state = To nije stanje sobe koje innkeep poznaje. Koristite gumbe na ovoj stranici.
hk-changed-meanwhile = Netko je upravo promijenio ovu sobu. Evo kakva je sada; dodirnite ponovno ako još treba.
not-found-room = Ta soba ne postoji.
flash-room-changed = Gotovo. Stanje sobe je spremljeno.
nav-invoices = Računi
invoices-title = Računi
invoices-from = Izdani od
invoices-to = Izdani do
invoices-any-status = Bilo koje stanje
invoices-range = Računi { $first } do { $last } od onih izdanih od { $from } do { $to }.
invoices-pages = Stranice popisa
invoices-next = Sljedeća stranica
invoices-first = Prva stranica
invoices-show = Prikaži
invoices-summary = { $count ->
    [one] { $count } račun izdan od { $from } do { $to }
    [few] { $count } računa izdana od { $from } do { $to }
   *[other] { $count } računa izdano od { $from } do { $to }
}
invoice-kind-invoice = Račun
invoice-kind-credit_note = Storno račun
col-number = Broj
col-kind = Vrsta
error-date = Upišite datum kao 2026-11-23 ili upotrijebite kalendar.
flash-credited = Račun je storniran. Ovo je storno račun, spreman za ispis.
invoice-reverses = Stornira račun { $number }
invoice-reversed-by = Storniran računom { $number }
credit-note-open = Storniraj ovaj račun
credit-note-explain = Storno račun poništava cijeli račun: izdaje se s vlastitim brojem i šalje Poreznoj upravi kao svaki račun. Ako gost još nešto duguje, poslije izdajte novi račun.
field-credit-reason = Razlog storniranja
credit-note-confirm = Da, storniraj cijeli račun { $number }
action-credit-note = Izdaj storno račun
error-reason = Upišite zašto se račun stornira; razlog se ispisuje na storno računu.
error-confirm = Označite kućicu za potvrdu; storno račun ne može se povući.
flash-sold = Račun je izdan. Nalazi se ispod, spreman za ispis.
nav-new-sale = Nova prodaja
sale-title = Prodaja izvan boravka
sale-intro = Naplatite gostu nešto što nije dio boravka: večeru, parkiranje, poklon-bon.
sale-find-guest = Ime gosta
sale-no-guest-found = Nijedan gost nema to ime. Najprije ga dodajte pod Gosti ili provjerite kako je napisano.
sale-choose = Odaberi
sale-bill-guest = Naplati ovom gostu
sale-billed-to = Kupac
sale-other-guest = drugi gost
sale-lines = Što se prodaje
sale-tax-rate = Stopa poreza %
sale-line-field = Stavka { $line }, { $field }
sale-tax-hint = Ostavite stopu praznom za uobičajenu stopu objekta. Prazne stavke se izostavljaju.
sale-add-line = Dodaj stavku
sale-issue = Izdaj račun
sale-already-sent = Ova je prodaja već poslana i račun se izdaje. Pogledajte popis računa prije nego što je ponovno pošaljete.
error-tax-rate = Upišite stopu, npr. 13 ili 5,5.
error-sale-lines = Ispunite barem jednu stavku: što je, koliko i jediničnu cijenu.
error-sale-negative = Stavke daju negativan zbroj. Račun ne može biti negativan: za povrat novca otvorite račun koji ispravljate i izdajte storno račun.
error-sale-guest = Odaberite gosta kojem se naplaćuje.
invoices-new-sale = Nova prodaja
invoice-reason = Razlog
invoices-for-guest = Za gosta { $name }
invoices-all-guests = svi gosti
guest-invoices = Računi
guest-new-sale = Naplati prodaju
nav-admin = Administracija
nav-staff = Osoblje
nav-my-password = Moj profil
admin-title = Administracija
admin-staff-about = Tko se smije prijaviti i što tko smije raditi: dodajte osoblje, promijenite ulogu, postavite novu lozinku umjesto zaboravljene, onemogućite one koji su otišli.
staff-title = Osoblje
staff-role = Uloga
staff-active = može se prijaviti
staff-disabled-since = onemogućen od { $day }
staff-added-on = Dodan
staff-add = Dodaj djelatnika
staff-add-about = Dobiva lozinku izrađenu za njega, prikazanu samo jednom na sljedećoj stranici; predajte mu je, a može je promijeniti pod „Moj profil” (svoje ime na vrhu stranice).
staff-add-button = Dodaj i izradi lozinku
field-username = Korisničko ime
error-role = Odaberite jednu od uloga s popisa.
not-found-staff = Taj djelatnik ne postoji.
staff-this-is-you = Ovo ste vi. Vašu ulogu može promijeniti drugi administrator; lozinku mijenjate sami:
staff-change-role = Promijeni ulogu
staff-change-ends-sessions = Promjena uloge, nova lozinka ili onemogućavanje odjavljuje tu osobu posvuda; ponovno se prijavljuje s onim što sada smije.
staff-confirm-reset = Da, izradi novu lozinku
staff-reset-password = Postavi novu lozinku
staff-confirm-disable = Da, više se ne smije prijaviti
staff-disable = Onemogući
staff-confirm-enable = Da, smije se opet prijaviti
staff-enable = Omogući
staff-confirm = Najprije označite kućicu pokraj gumba, za potvrdu.
staff-added-title = { $name } je dodan
staff-reset-title = Nova lozinka za { $name }
password-once = Ovo je lozinka za { $name }. Predajte je odmah: prikazuje se samo ovaj put, a innkeep čuva samo njezin šifrirani oblik koji nitko ne može pročitati.
password-label = Lozinka
password-once-after = Izgubljena? Na stranici djelatnika ponovno postavite novu lozinku.
password-done = Gotovo, natrag na djelatnika
flash-staff-role = Uloga je promijenjena. Morat će se ponovno prijaviti.
flash-staff-disabled = Onemogućen. Odjavljen je i više se ne može prijaviti.
flash-staff-enabled = Omogućen. Može se opet prijaviti svojom lozinkom.
flash-password-changed = Vaša lozinka je promijenjena. Ostale prijave na vaše ime su odjavljene.
account-password-title = Moja lozinka
account-password-about = Upišite sadašnju lozinku, zatim novu dvaput. Najmanje 10 znakova; kratka rečenica lako se pamti, a teško pogađa.
field-password-current = Sadašnja lozinka
field-password-new = Nova lozinka
field-password-repeat = Ponovite novu lozinku
account-password-save = Promijeni moju lozinku
error-password-wrong_password = Ovo nije vaša sadašnja lozinka. Upišite je ponovno.
error-password-too_short = Nova lozinka treba imati najmanje 10 znakova.
error-password-unchanged = Nova lozinka mora se razlikovati od sadašnje.
error-password-mismatch = Dvije nove lozinke se razlikuju. Upišite istu dvaput.
error-password-throttled = Previše pogrešnih lozinki. Pričekajte nekoliko minuta pa pokušajte ponovno.
nav-settings = Objekt
admin-settings-about = Naziv hotela kako se ispisuje na računima, vremenska zona, valuta i država, numeriranje računa, uobičajena stopa poreza i boravišna pristojba.
settings-title = Objekt
settings-name = Naziv, kako se ispisuje na računima
settings-time-zone = Vremenska zona (npr. Europe/Zagreb)
settings-currency = Valuta (npr. EUR)
settings-country = Država (dva slova, npr. HR)
settings-series = Numeriranje računa ({"{"}year{"}"} je godina)
settings-tax-rate = Uobičajena stopa poreza %
settings-city-tax-heading = Boravišna pristojba
settings-city-tax-about = Naplaćuje se po gostu i noći pri odjavi, kad je propisuje grad ili općina.
settings-city-tax = Boravišna pristojba
settings-city-tax-none = ne naplaćuje se
settings-city-tax-charged = naplaćuje se
settings-city-tax-amount = Po gostu po noći
settings-city-tax-rate = PDV na pristojbu % (obično prazno)
settings-city-tax-max-nights = Najviše ovoliko noći (prazno: svaku noć)
settings-city-tax-exempt = Oslobođeni mlađi od (godina, prazno: nitko)
settings-save = Spremi postavke
settings-compliance = Državni sustavi
settings-registration = Prijava boravka gostiju
settings-fiscal = Fiskalizacija računa
settings-compliance-about = Postavljaju se u konfiguracijskoj datoteci, s certifikatima i lozinkama, da ih nitko ne može slučajno isključiti iz preglednika.
scheme-none = ne koristi se
scheme-it-alloggiati = Italija, Alloggiati Web (Polizia di Stato)
scheme-hr-cis = Hrvatska, fiskalizacija (Porezna uprava)
settings-changed-meanwhile = Netko je upravo spremio postavke. Ono što ste upisali još je ovdje; provjerite i ponovno spremite.
flash-settings-saved = Postavke su spremljene.
nav-rooms = Sobe
admin-rooms-about = Vrste soba s brojem gostiju i cijenom te sobe: dodajte ih, mijenjajte, stavite sobu izvan funkcije.
rooms-title = Sobe
rooms-types-heading = Vrste soba
rooms-no-types = Još nema vrsta soba. Dodajte prvu ispod: dvokrevetnu, jednokrevetnu, apartman.
rooms-rooms-heading = Sobe
rooms-no-rooms = Još nema soba. Dodajte ih ispod, svaku s brojem na vratima.
rooms-type-code = Oznaka
rooms-type-name = Naziv
rooms-type-guests = Najviše gostiju
rooms-type-rate = Cijena po noći
rooms-type-description = Opis
rooms-number = Broj na vratima
rooms-type = Vrsta sobe
rooms-floor = Kat
rooms-state = Stanje
rooms-add-type = Dodaj vrstu sobe
rooms-add-type-button = Dodaj vrstu sobe
rooms-add-room = Dodaj sobu
rooms-add-room-button = Dodaj sobu
rooms-edit-type = Vrsta sobe { $name }
rooms-edit-room = Soba { $name }
rooms-save = Spremi
rooms-changed-meanwhile = Netko je to upravo promijenio. Ono što ste upisali još je ovdje; provjerite i ponovno spremite.
flash-room-type-added = Vrsta sobe je dodana.
flash-room-room-added = Soba je dodana.
flash-room-type-saved = Vrsta sobe je spremljena.
flash-room-room-saved = Soba je spremljena.
nav-clients = API klijenti i uređaji
admin-clients-about = Programi i uređaji koji koriste innkeepov API: channel manager, veza s knjigovodstvom, kiosk. Registrirajte jedan, ograničite ga, opozovite, odobrite kod kioska.
clients-title = API klijenti i uređaji
clients-list = Registrirani
client-name = Naziv
client-kind = Vrsta
client-scopes = Što smije
client-active = u upotrebi
client-revoked-since = opozvan od { $day }
client-grant-client_credentials = integracija s vlastitom tajnom
client-grant-authorization_code = aplikacija u koju se prijavljuje osoblje
client-grant-device = kiosk ili uređaj koji prikazuje kod
client-add = Registriraj klijenta
client-add-button = Registriraj
client-redirect = Povratna adresa (aplikacije u koje se prijavljuje osoblje)
client-added-title = { $name } je registriran
client-secret-once = ID klijenta je { $id }, a ovo je njegova tajna. Odmah ih kopirajte u postavke za { $name }: tajna se prikazuje samo ovaj put.
client-secret-label = Tajna klijenta
client-secret-after = Izgubljena? Ponovno registrirajte klijenta i opozovite ovoga.
client-done = Gotovo, na klijenta
client-device-heading = Odobri uređaj
client-device-about = Kiosk ili drugi uređaj pri postavljanju prikazuje kod poput ABCD-EFGH. Upišite ga ovdje da ga pustite, s onim što vaša uloga dopušta.
client-device-code = Kod na uređaju
client-device-approve = Odobri
client-device-deny = Odbij
client-device-next = Prikaži što traži
client-device-unknown = Nijedan uređaj ne čeka s tim kodom. Provjerite ga na zaslonu uređaja; kodovi istječu za nekoliko minuta.
client-device-confirm-title = Odobriti ovaj uređaj?
client-device-confirm-asks = traži pristup s kodom
client-device-confirm-kiosk = Ovo je innkeepov kiosk za samostalnu prijavu: pronalazit će današnje rezervacije po kodu i prezimenu, preuzimati podatke gostiju za prijavu i prijavljivati ih, samo na vlastitom zaslonu.
client-device-confirm-warning = Odobrite samo uređaj koji vidite pred sobom i koji prikazuje upravo ovaj kôd. Nitko iz innkeepa ili s portala za rezervacije nikada ne traži kôd telefonom ili e-poštom.
kiosks-title = Upareni kiosci
kiosks-about = Kiosci za samostalnu prijavu upareni s ovom recepcijom. Poništite uparivanje kioska koji je izgubljen, premješten ili se više ne koristi: pri sljedećem zahtjevu tražit će ponovno uparivanje.
kiosks-none = Nijedan kiosk nije uparen.
kiosks-approved-by = Odobrio
kiosks-approved-at = Odobreno
kiosks-last-seen = Zadnja uporaba
kiosks-approved-cli = naredbeni redak
kiosks-unpair = Poništi uparivanje
not-found-kiosk = Nema takvog uparenog kioska; uparivanje je možda već poništeno.
flash-kiosk-unpaired = Uparivanje kioska je poništeno. Pri sljedećem zahtjevu tražit će ponovno uparivanje.
client-id = ID klijenta
client-rate = Ograničenje zahtjeva
client-rate-own = { $rate } zahtjeva u sekundi, naleti do { $burst }
client-rate-default = ono poslužitelja (konfiguracijska datoteka, [limits])
client-rate-about = Ostavite oba prazna za ograničenje poslužitelja. Zaposlenoj integraciji možda treba više; kiosku treba malo.
client-rate-per-second = Zahtjeva u sekundi
client-rate-burst = Nalet
client-rate-save = Spremi ograničenje
client-confirm-revoke = Da, više ne smije pozivati innkeep
client-revoke = Opozovi
not-found-client = Taj API klijent ne postoji.
flash-client-added = Klijent je registriran.
flash-client-rate = Ograničenje je spremljeno; vrijedi od sljedećeg zahtjeva klijenta.
flash-client-revoked = Opozvan. Njegovi tokeni odmah su prestali raditi.
flash-device-approved = Uređaj je odobren. Za nekoliko sekundi nastavlja sam.
flash-device-denied = Uređaj je odbijen.
nav-webhooks = Webhookovi
admin-webhooks-about = Adrese koje innkeep odmah obavještava kad se nešto dogodi (rezervacija, odjava, račun): registrirajte jednu, pogledajte što je isporučeno, pošaljite ponovno.
webhooks-title = Webhookovi
webhooks-none = Još nema webhook adresa.
webhook-title = Webhook adresa
webhook-url = Adresa
webhook-events = Događaji
webhook-events-hint = Odvojeni razmacima: točni nazivi poput reservation.created, obitelj poput invoice.* ili * za sve.
webhook-description = Napomena za ljude
webhook-enabled = Isporuke su uključene (uklonite kvačicu da ih pauzirate)
webhook-on = uključeno
webhook-off = pauzirano
webhook-off-because = zaustavljeno: { $reason }
webhook-add = Registriraj adresu
webhook-add-button = Registriraj
webhook-added-title = { $url } je registrirana
webhook-rotated-title = Nova tajna za { $url }
webhook-secret-once = Ovo je tajna kojom primatelj provjerava potpis svake isporuke (Standard Webhooks). Odmah je kopirajte u primatelja: prikazuje se samo ovaj put.
webhook-secret-label = Tajna za potpis
webhook-secret-after = Izgubljena? Zamijenite tajnu na stranici adrese; stara i dalje potpisuje jedan dan.
webhook-done = Gotovo, na adresu
webhook-old-secret-until = Stara tajna također potpisuje do
webhook-send-test = Pošalji probu
webhook-confirm-rotate = Da, nova tajna
webhook-rotate = Zamijeni tajnu
webhook-change = Promijeni adresu
webhook-log = Isporuke, najnovije prve
webhook-log-empty = Još ništa nije isporučeno.
webhook-log-when = Kada (UTC)
webhook-log-event = Događaj
webhook-log-attempt = Pokušaj
webhook-log-outcome = Ishod
webhook-log-answer = Odgovor
webhook-redeliver = Pošalji ponovno
delivery-succeeded = isporučeno
delivery-retrying = nije uspjelo, ponovit će se
delivery-failed = nije uspjelo
not-found-webhook = Ta webhook adresa ne postoji.
flash-webhook-test = Probni događaj je na putu; za nekoliko sekundi pojavit će se u zapisniku ispod.
flash-webhook-saved = Adresa je spremljena.
flash-webhook-redelivered = Događaj je ponovno na putu.
nav-compliance = Centar za usklađenost
admin-compliance-about = Što policija (prijava boravka) ili Porezna uprava (fiskalni računi) još nije prihvatila, najhitnije prvo; dnevna datoteka prijava; službene tablice; certifikat.
compliance-title = Centar za usklađenost
compliance-certificate = Fiskalni certifikat
compliance-certificate-until = Vrijedi do
compliance-days-left = { $day } ({ $count ->
    [one] još { $count } dan
    [few] još { $count } dana
   *[other] još { $count } dana
})
compliance-certificate-renew = { $count ->
    [one] Fiskalni certifikat istječe za { $count } dan. Odmah zatražite novi od FINA-e: bez njega se nijedan račun ne može fiskalizirati.
    [few] Fiskalni certifikat istječe za { $count } dana. Odmah zatražite novi od FINA-e: bez njega se nijedan račun ne može fiskalizirati.
   *[other] Fiskalni certifikat istječe za { $count } dana. Odmah zatražite novi od FINA-e: bez njega se nijedan račun ne može fiskalizirati.
}
compliance-waiting = Još nije prihvaćeno
compliance-all-accepted = Sve poslano je prihvaćeno. Nema posla.
compliance-what = Što
compliance-for = Za
compliance-due = Rok (UTC)
compliance-problem = Zadnji problem
compliance-send-again = Pošalji ponovno
submission-kind-guest_registration = prijava boravka
submission-kind-fiscal_receipt = fiskalni račun
submission-overdue = { $due }, rok je prošao
compliance-file = Dnevna datoteka prijava
compliance-file-about = Za ručni unos na portalu policije kad automatsko slanje ne uspije: gosti toga dana koji još nisu prihvaćeni, u službenom obliku.
compliance-file-day = Dan
compliance-file-all = Svi redovi toga dana, i prihvaćeni
compliance-file-download = Preuzmi datoteku
compliance-tables = Službene tablice
compliance-tables-about = Mjesta i vrste isprava koje poznaje sustav policije, preuzeti s njegova portala (Tabelle). Učitajte noviju datoteku ovdje kad se promijene.
compliance-no-tables = Još nema učitanih tablica: prijava ne može provjeravati mjesta i isprave dok se ne učitaju.
compliance-table = Tablica
compliance-rows = Redova
compliance-source = Datoteka
compliance-error-details = Pojedinosti
compliance-error-unreachable = Usluga nadležnog tijela nije bila dostupna; innkeep pokušava ponovno sam.
compliance-error-certificate = Nadležno tijelo nije prihvatilo certifikat: provjerite njegovu datoteku i lozinku u konfiguraciji.
compliance-error-credentials = Nadležno tijelo nije prihvatilo korisničko ime, lozinku ili ključ: provjerite ih u konfiguraciji.
compliance-error-refused = Nadležno tijelo odbilo je ovaj zapis: ispravite ga (vidi pojedinosti), pa ga pošaljite ponovno.
compliance-imported = Učitano
compliance-file-choose = Datoteka (CSV kako je preuzet)
compliance-upload = Učitaj
compliance-table-missing = Odaberite datoteku za učitavanje.
compliance-table-empty = Datoteka { $file } je prazna.
compliance-table-too-big = Datoteka je veća od 16 MB; to nije službena tablica.
compliance-table-not-text = Datoteka nije tekstualna (CSV).
flash-submission-retried = Ponovno poslano. Stanje ispod mijenja se kad tijelo vlasti odgovori.
flash-table-imported = Tablica je učitana.
sale-payment = Plaćanje
account-title = Moj profil
account-language-title = Jezik mojih stranica
field-language = Jezik
language-browser = Kako traži moj preglednik
account-language-save = Spremi jezik
error-language = Odaberite jedan od jezika s popisa.
flash-language-saved = Jezik je spremljen.
staff-change-language = Promijeni jezik
flash-staff-language = Jezik je promijenjen; vrijedi od njegove sljedeće stranice.
kiosk-title = Samostalna prijava
kiosk-language = Jezik
kiosk-waiting = Ovaj kiosk još nije odobren. Recepcija ga odobrava ovim kodom:
kiosk-waiting-how = Na recepciji otvorite { $url } i upišite ovaj kôd (administrator ga može odobriti i pod Administracija, API klijenti i uređaji). Stranica nastavlja sama čim bude odobren.
kiosk-welcome = Dobro došli! Upišite kod rezervacije i prezime za prijavu.
kiosk-code = Kod rezervacije (na potvrdi)
kiosk-last-name = Prezime
kiosk-find = Nađi moju rezervaciju
kiosk-not-found = Nijedna današnja rezervacija nema taj kod i prezime. Provjerite oboje ili pitajte na recepciji.
kiosk-locked = Previše pokušaja bez pronađene rezervacije. Molimo pitajte na recepciji.
kiosk-register-intro = Zakon traži od hotela da svakog gosta prijave nadležnim tijelima. Dopunite što nedostaje za svakog gosta, kako piše u ispravama.
kiosk-consent = Potvrđujem da su ovi podaci točni i da se smiju poslati nadležnim tijelima kako propisuje zakon.
kiosk-consent-needed = Najprije označite kućicu da potvrdite podatke.
kiosk-check-in = Prijavi se
kiosk-start-again = Počni ispočetka
kiosk-your-room = Prijavljeni ste. Vaša soba je { $room }.
kiosk-done-after = Ugodan boravak. Ovaj se zaslon uskoro vraća na početak.
kiosk-no-room = Soba još nije spremna. Molimo pitajte na recepciji; vaši su podaci spremljeni.
kiosk-see-reception = Ova se rezervacija ne može prijaviti ovdje. Molimo pitajte na recepciji.
kiosk-check-again = Provjeri ponovno
kiosk-unpaired = Ovaj kiosk još nije uparen s recepcijom.
kiosk-pair = Upari ovaj kiosk
kiosk-pair-how = Uparivanje prikazuje kôd na ovom zaslonu. Na recepciji otvorite { $url } i upišite ga da biste odobrili ovaj kiosk.
kiosk-off = Samostalna prijava trenutačno je isključena. Molimo prijavite se na recepciji.
kiosk-ended-unpaired = Recepcija je poništila uparivanje ovog kioska. Ponovno ga uparite da biste ga koristili.
kiosk-ended-approver = Djelatnik koji je odobrio ovaj kiosk više se ne može prijaviti pa je uparivanje završilo. Ponovno ga uparite.
kiosk-ended-expired = Ovaj kiosk uparen je dulje nego što hotel dopušta pa je uparivanje završilo. Ponovno ga uparite.
rule-blank = ne smije biti prazno
rule-too_long = najviše { $n1 } znakova
rule-invalid_characters = ne smije sadržavati kontrolne znakove
rule-out_of_range = mora biti između { $n1 } i { $n2 }
rule-invalid_email = mora biti adresa e-pošte, npr. ana@example.com
rule-invalid_phone = mora biti telefonski broj, npr. +385 1 234 5678 (5 do 20 znamenaka, najviše 40 znakova)
rule-invalid_country = mora biti oznaka države velikim slovima (ISO 3166-1), npr. HR ili IT
rule-invalid_currency = mora biti oznaka valute velikim slovima (ISO 4217), npr. EUR
rule-invalid_code = 1 do 16 znakova od A-Z, 0-9, _ i -
rule-invalid_pattern = smije sadržavati slova, znamenke, -, _, / i oznaku {"{"}year{"}"} (1 do 32 znaka)
rule-invalid_date = mora biti stvaran datum u obliku GGGG-MM-DD
rule-invalid_time_zone = mora biti IANA vremenska zona, npr. Europe/Zagreb
rule-required = obavezno je
rule-invalid_type = nije vrsta vrijednosti koja se ovdje očekuje (broj gdje se traži broj)
rule-invalid_choice = mora biti jedno od: { $list }

# Rečenice slučajeva uporabe (src/desk/problems.rs), s vrijednostima koje nose.
problem-stay-state = Nije moguće: rezervacija je u stanju „{ $status }”.
problem-stay-ended = Ovaj boravak završio je { $date }; prijava više nije moguća.
problem-check-in-too-early = Gost po ovoj rezervaciji dolazi { $date }; prijava je moguća od tog dana.
problem-no-show-too-early = Nedolazak se može upisati tek od dana dolaska ({ $date }).
problem-cannot-become = Rezervacija u stanju „{ $from }” ne može prijeći u stanje „{ $to }”.
problem-in-house-locked = Dok je gost u hotelu, mogu se mijenjati samo odlazak, soba, gosti i napomene.
problem-no-longer-changes = Rezervacija u stanju „{ $status }” više se ne može mijenjati.
problem-room-out-of-order = Soba { $room } nije u funkciji.
problem-room-occupied = Soba { $room } je zauzeta.
problem-room-given = Soba { $room } dodijeljena je rezervaciji { $code } za neke od ovih noći.
problem-room-taken = Soba je već dodijeljena rezervaciji { $code } za neke od ovih noći.
problem-the-room-out-of-order = Soba nije u funkciji.
problem-no-availability = Nijedna soba vrste { $type } nije slobodna za noći { $nights }.
problem-keep-room = dok je gost u hotelu, rezervacija mora zadržati sobu
problem-departure-past = za goste u hotelu ne smije biti prije današnjeg dana
problem-no-room-assigned = nijedna soba nije dodijeljena; odaberite sobu
problem-room-type-mismatch = mora biti soba rezervirane vrste
problem-after-arrival = mora biti nakon dolaska
problem-max-occupancy = odrasli i djeca zajedno: najviše { $max } za vrstu sobe { $type }
problem-max-nights = najviše { $n } noćenja nakon dolaska
problem-one-balance = je obavezan: samo jedno plaćanje smije izostaviti iznos da preuzme ostatak
problem-next-number = je obavezan: ovdje je zadnji broj { $last }; upišite sljedeći
problem-too-many-guests = navodi { $listed } gostiju, a odraslih i djece ima { $party }
problem-wrong-first-run-code = nije kôd koji je innkeep ispisao pri pokretanju
problem-not-a-percentage = nije postotak; upišite ga kao 13 ili 9,5
problem-not-an-amount = nije iznos; upišite ga kao 95 ili 95,50
problem-code-earlier = to je oznaka vrste sobe navedene iznad
problem-room-earlier = soba { $room } već je u vrsti sobe iznad
problem-one-room-type = upišite barem jednu vrstu sobe
problem-one-room-number = upišite barem jedan broj sobe, npr. 101-112
problem-party-full = rezervacija je za { $party } gostiju i svi su već upisani; najprije promijenite broj odraslih ili djece
problem-party-registered = Ova je skupina prijavljena nadležnom tijelu pri prijavi gostiju; gost koji stigne kasnije treba vlastitu rezervaciju kako bi bio prijavljen po dolasku.
problem-party-closed = Gosti rezervacije u stanju „{ $status }” više se ne mogu mijenjati.
problem-rate-currency = mora biti { $currency } (valuta vrste sobe), osim ako je zadana cijena noćenja
problem-city-tax-currency = boravišna pristojba je u { $tax }, a boravak u { $stay }; jedan račun ne može imati dvije valute
problem-in-future = ne smije biti u budućnosti
problem-no-more-charges = Na rezervaciju u stanju „{ $status }” ne mogu se dodavati troškovi.
problem-credit-note-reversed = Odobrenje se ne može stornirati; umjesto toga izdajte novi račun.
problem-already-reversed = Račun { $number } već je storniran odobrenjem.
problem-nothing-to-refund = Od plaćenog na računu { $number } ništa nije ostalo za vratiti, pa ovo odobrenje nema što vratiti.
problem-no-more-payments = Račun { $number } ne prima više uplata.
problem-no-interim-bill = Za rezervaciju u stanju „{ $status }” ne izdaje se međuračun.
problem-all-invoiced = Svi troškovi ove rezervacije već su na računu.
problem-charge-invoiced = Trošak { $charge } već je na računu.
problem-one-line = potrebna je barem jedna stavka
problem-exceeds-outstanding = najviše { $amount }, koliko je još preostalo za platiti
problem-numbering-unconfirmed = Izdavanje računa zaustavljeno je od { $since }: ova je baza vraćena iz sigurnosne kopije, a računi izdani nakon te kopije možda već nose sljedeće brojeve. Administrator najprije mora potvrditi sljedeći broj svake serije (innkeep numbering confirm).
problem-amounts-too-large = iznosi su preveliki za račun
problem-room-exists = Soba broj { $number } već postoji.
problem-room-type-exists = Vrsta sobe s oznakom { $code } već postoji.
problem-code-taken = već je koristi druga vrsta sobe
problem-number-taken = već ga koristi druga soba
problem-room-in-use = Rezervacija { $code } dodijeljena je ovoj sobi; uklonite je ili premjestite prije promjene vrste sobe.
problem-user-exists = Korisnik { $name } već postoji.
problem-own-account = Ne možete promijeniti vlastitu ulogu ni isključiti sami sebe; to može drugi administrator.
problem-last-admin = Ovo je posljednji administrator; najprije nekoga drugog postavite za administratora.
problem-username = 1 do 64 znaka, bez razmaka
problem-password-short = najmanje 10 znakova
problem-wrong-password = to nije vaša lozinka
problem-password-unchanged = mora se razlikovati od sadašnje
problem-password-mismatch = mora biti jednaka novoj lozinki
problem-first-party = Klijent same recepcije ne može se opozvati; umjesto toga isključite pojedine djelatnike.
problem-whole-number = mora biti cijeli broj od 1 naviše
problem-rate-range = broj zahtjeva u sekundi mora biti između 1 i { $max }
problem-burst-range = vršni broj mora biti između 1 i { $max }
problem-burst-below-rate = vršni broj mora biti barem jednak broju zahtjeva u sekundi
problem-insufficient-role = Vaša uloga ne može dodijeliti nijedno ovlaštenje koje ovaj uređaj traži.
problem-kiosk-revoked = Klijent kioska je opozvan.
problem-url-absolute = mora biti potpuna adresa koja počinje s http ili https
problem-url-scheme = mora počinjati s http:// ili https://
problem-url-host = mora navesti poslužitelj
problem-url-credentials = ne smije sadržavati korisničko ime i lozinku; vjerodostojnost daje potpis
problem-url-link-local = link-local adrese i adrese metapodataka oblaka nikad ne primaju webhookove
problem-url-loopback = ovaj je poslužitelj postavljen da odbija loopback adrese
problem-url-private = ovaj je poslužitelj postavljen da odbija adrese privatne mreže
problem-url-not-unicast = adresa nije adresa jednog računala
problem-url-translated = adresa vodi kroz NAT64 ili Teredo prevoditelj do odredišta koje se ne može provjeriti
problem-events-required = navedite barem jednu vrstu događaja, skupinu kao reservation.* ili *
problem-unknown-event = nije vrsta događaja, skupina kao reservation.* ni *
problem-endpoint-disabled = Odredište je isključeno; najprije ga uključite.
problem-event-expired = Događaj se više ne čuva (događaji se zadano čuvaju 30 dana).
problem-scheme-gone = Ova prijava je za { $scheme }, koji sada nije postavljen.
problem-not-retryable = Ova se prijava ne može ponoviti; ponavljaju se samo odbijene, one koje čekaju novi pokušaj, one s nepoznatim ishodom i one koje traže ručnu obradu.
problem-table-header = redak { $line }: zaglavlje mora biti { $expected } (a glasi { $given })
problem-table-description = redak { $line }: Descrizione je prazan
problem-table-place-code = redak { $line }: Codice „{ $code }” mora imati 9 znamenaka
problem-table-province = redak { $line }: Provincia „{ $province }” mora imati dva velika slova (ES za stranu državu)
problem-table-valid-to = redak { $line }: DataFineVal „{ $date }” mora biti dd/mm/gggg ili prazan
problem-table-code = redak { $line }: Codice „{ $code }” mora imati 1 do 5 slova ili znamenaka
problem-table-empty = datoteka nema redaka
problem-table-line = redak { $line }: { $why }

# Prijava djelatnika i odobravanje uređaja (stranice poslužitelja za autorizaciju, /oauth/authorize i /device).
oauth-sign-in = Prijava
oauth-sign-in-desk = Prijava na recepciju
oauth-sign-in-app = Prijava u innkeep
oauth-asks = traži da djeluje u vaše ime s ovim ovlastima:
oauth-password = Lozinka
oauth-allow = Prijavi se i dopusti
oauth-deny = Odbij
oauth-role-limits = Dodjeljuje se samo ono što vaša uloga dopušta.
oauth-wrong-password = Pogrešno korisničko ime ili lozinka.
oauth-broken-title = Nešto nije uspjelo
oauth-unreadable = Obrazac nije bilo moguće pročitati. Počnite ponovno iz aplikacije.
oauth-expired-title = Počnite ponovno
oauth-expired = Ovaj je obrazac istekao ili nije s ove stranice. Vratite se u aplikaciju i ponovno se prijavite.
oauth-password-unchecked = Poslužitelj nije mogao provjeriti lozinku. Pokušajte ponovno.
oauth-link-broken = Ova poveznica za prijavu ne radi
oauth-sign-in-paused = Prijava je zaustavljena
oauth-approval-paused = Odobravanje je zaustavljeno
oauth-throttled = Previše neuspjelih pokušaja. Pričekajte { $secs } s, pa pokušajte ponovno.
oauth-device-title = Odobrite uređaj
oauth-device-intro = Upišite kôd koji uređaj prikazuje. Sljedeći korak kaže koji uređaj traži pristup i što bi mogao raditi, prije nego što ga odobrite.
oauth-device-code = Kod na uređaju
oauth-device-unreadable = Obrazac nije bilo moguće pročitati; pokušajte ponovno.
oauth-device-expired = Ovaj je obrazac istekao; pošaljite ga ponovno.
oauth-device-approved-title = Uređaj je odobren
oauth-device-approved = Uređaj je prijavljen. Sada se možete vratiti na njega.
oauth-device-denied-title = Uređaj je odbijen
oauth-device-denied = Uređaj nije prijavljen.
problem-device-unknown = Nijedan uređaj ne čeka s kodom { $code }; možda je istekao.
problem-no-client-id = Aplikacija nije rekla tko je (nedostaje client_id).
problem-client-lookup = Poslužitelj nije mogao pronaći aplikaciju.
problem-not-for-staff = Ova aplikacija nije registrirana za prijavu djelatnika.
problem-redirect-unknown = Aplikacija je tražila povratak na adresu koju nije registrirala (redirect_uri).
# Što pojedino ovlaštenje (scope) dopušta.
scope-guests-read = Čitanje gostiju.
scope-guests-write = Upis i izmjena gostiju.
scope-reservations-read = Čitanje rezervacija, vrsta soba, soba i raspoloživosti.
scope-reservations-write = Upis, izmjena i otkazivanje rezervacija.
scope-front_desk = Prijava, odjava i troškovi na računu boravka.
scope-housekeeping = Izmjena soba: stanje čišćenja i podaci.
scope-invoices-read = Čitanje računa.
scope-invoices-write = Izdavanje računa, odobrenja i uplata.
scope-events-read = Čitanje toka događaja.
scope-webhooks-manage = Upravljanje odredištima webhookova.
scope-compliance = Pregled i ponavljanje prijava nacionalnim tijelima.
scope-admin = Postavke objekta, vrste soba i sobe, metrike.
admin-backup-heading = Sigurnosne kopije
admin-backup-none = Još nije napravljena nijedna dnevna sigurnosna kopija. Postavite [backup] dir u konfiguracijskoj datoteci (vidi README) ili ručno pokrenite innkeep backup FILE.
admin-backup-age = { $count ->
    [0] Posljednja dnevna kopija zapisana je i provjerena prije manje od sat vremena.
    [one] Posljednja dnevna kopija zapisana je i provjerena prije { $count } sat.
    [few] Posljednja dnevna kopija zapisana je i provjerena prije { $count } sata.
   *[other] Posljednja dnevna kopija zapisana je i provjerena prije { $count } sati.
}
admin-backup-late = Posljednja dnevna kopija stara je { $count } h: provjerite je li disk za kopije priključen i ima li mjesta.

## A guest's privacy (GDPR), on the guest's page for admins.
privacy-heading = Privatnost
privacy-about = Gost može zatražiti sve što hotel o njemu čuva ili da ga se izbriše. Računi i prijave policiji ostaju onoliko dugo koliko zakon propisuje.
privacy-export = Preuzmi sve podatke o ovom gostu (JSON)
privacy-erase-confirm = Da, izbriši osobne podatke gosta { $name }. To se ne može poništiti.
privacy-erase = Izbriši ovog gosta
privacy-erase-tick = Označite kućicu za potvrdu; brisanje se ne može poništiti.
erased-title = Gost je izbrisan
erased-lead = Ime, kontakti, datum i mjesto rođenja, isprava, adresa i bilješke više ne postoje. Njegova povijest čuva samo tko je što promijenio i kada.
erased-nothing-kept = O njemu ništa ne treba čuvati.
erased-kept-lead = Zakon čuva ove isprave, točno onakve kakve su izdane ili poslane:
erased-see-record = Pogledaj izbrisani zapis
col-kept = Isprava
col-kept-until = Čuva se do
col-kept-why = Zašto
kept-invoice = Račun { $number }
kept-registration = Prijava policiji za rezervaciju { $code }
law-invoices-it = Talijanski građanski zakonik, čl. 2220: računi se čuvaju deset godina.
law-invoices-hr = Zakon o računovodstvu, čl. 10: knjigovodstvene isprave čuvaju se jedanaest godina nakon poslovne godine.
law-invoices-other = Porezni i računovodstveni propisi: računi se čuvaju deset godina (uobičajeno u EU; provjerite propise svoje zemlje).
law-registrations-it = Talijanska prijava gostiju policiji (Alloggiati Web): potvrde se čuvaju pet godina.
law-registrations-other = Propisi o prijavi gostiju: prijave se čuvaju pet godina.
problem-guest-open-reservation = Gost je na rezervaciji { $code } (od { $arrival } do { $departure }), koja nije završena: otkažite je ili odjavite goste prije brisanja.
