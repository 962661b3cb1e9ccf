"""A whole stay through innkeep's API, using only the client that openapi-python-client
generated from openapi.json (default settings) and authlib for the token.

Usage: scenario.py BASE_URL CLIENT_ID CLIENT_SECRET
"""

import datetime
import json
import sys
import threading
import time
import zoneinfo
from http.server import BaseHTTPRequestHandler, HTTPServer

from authlib.integrations.httpx_client import OAuth2Client

from innkeep_client import AuthenticatedClient
from innkeep_client.api.guests import create_guest, get_guest
from innkeep_client.api.invoices import get_invoice
from innkeep_client.api.reservations import create_reservation, list_reservations
from innkeep_client.api.room_types import create_room_type
from innkeep_client.api.rooms import create_room
from innkeep_client.api.settings import get_settings
from innkeep_client.api.stays import add_charge, check_in, check_out
from innkeep_client.api.webhooks import create_webhook
from innkeep_client.models import (
    ChargeInput,
    CheckIn,
    CheckOut,
    CheckOutPaymentMethod,
    GuestCreate,
    Problem,
    ReservationCreate,
    RoomCreate,
    RoomTypeCreate,
    WebhookCreate,
)

BASE, CLIENT_ID, SECRET = sys.argv[1:4]
received = []


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["content-length"]))
        received.append((dict(self.headers), json.loads(body)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def ok(response, status):
    assert response.status_code == status, (response.status_code, response.content)
    return response.parsed


def main():
    oauth = OAuth2Client(CLIENT_ID, SECRET, token_endpoint_auth_method="client_secret_basic")
    token = oauth.fetch_token(f"{BASE}/oauth/token", grant_type="client_credentials")
    api = AuthenticatedClient(base_url=f"{BASE}/v1", token=token["access_token"])

    receiver = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    hook = ok(
        create_webhook.sync_detailed(
            client=api,
            body=WebhookCreate(
                url=f"http://127.0.0.1:{receiver.server_port}/hook",
                events=["reservation.*"],
            ),
        ),
        201,
    )
    assert hook.secret.startswith("whsec_")

    settings = ok(get_settings.sync_detailed(client=api), 200)
    today = datetime.datetime.now(zoneinfo.ZoneInfo(settings.time_zone)).date()

    rt = ok(
        create_room_type.sync_detailed(
            client=api,
            body=RoomTypeCreate(code="DBL", name="Double", max_occupancy=2, base_rate=12000),
        ),
        201,
    )
    room = ok(create_room.sync_detailed(client=api, body=RoomCreate(number="101", room_type_id=rt.id)), 201)
    guest = ok(
        create_guest.sync_detailed(client=api, body=GuestCreate(first_name="Anna", last_name="Rossi")),
        201,
    )
    reservations = []
    for i in range(3):
        arrival = today + datetime.timedelta(days=10 * i)
        r = ok(
            create_reservation.sync_detailed(
                client=api,
                body=ReservationCreate(
                    primary_guest_id=guest.id,
                    room_type_id=rt.id,
                    arrival=arrival,
                    departure=arrival + datetime.timedelta(days=2),
                    adults=2,
                ),
                idempotency_key=f"booking-{i}",
            ),
            201,
        )
        reservations.append(r)

    # A status filter, page by page through next_cursor.
    seen, cursor = [], None
    while True:
        page = ok(
            list_reservations.sync_detailed(
                client=api, status="confirmed", limit=2, **({"cursor": cursor} if cursor else {})
            ),
            200,
        )
        seen += [r.id for r in page.data]
        cursor = page.next_cursor
        if not cursor:
            break
    assert sorted(seen) == sorted(r.id for r in reservations), seen

    stay = reservations[0]
    checked_in = ok(
        check_in.sync_detailed(client=api, body=CheckIn(reservation_id=stay.id, room_id=room.id)), 200
    )
    assert checked_in.status.value == "checked_in"
    charge = ChargeInput(description="Minibar", quantity=2, unit_price=450)
    first = add_charge.sync_detailed(client=api, id=stay.id, body=charge, idempotency_key="minibar-1")
    again = add_charge.sync_detailed(client=api, id=stay.id, body=charge, idempotency_key="minibar-1")
    assert ok(first, 201).id == ok(again, 201).id
    assert again.headers.get("idempotent-replayed") == "true"

    result = ok(
        check_out.sync_detailed(
            client=api, body=CheckOut(reservation_id=stay.id, payment_method=CheckOutPaymentMethod.CARD)
        ),
        200,
    )
    invoice_id = result.invoice["id"] if isinstance(result.invoice, dict) else result.invoice.id
    invoice = ok(get_invoice.sync_detailed(client=api, id=invoice_id), 200)
    descriptions = [line.description for line in invoice.lines]
    assert any("Minibar" in d for d in descriptions), descriptions
    assert invoice.totals.gross == sum(line.gross_amount for line in invoice.lines)

    # An error comes back as the Problem model.
    missing = get_guest.sync_detailed(client=api, id="gst_nope")
    assert missing.status_code == 404
    assert isinstance(missing.parsed, Problem), missing.parsed
    assert missing.parsed.code == "not_found"

    # The webhook arrives, signed, with the feed's identity.
    for _ in range(100):
        if any(body["type"] == "reservation.checked_out" for _, body in received):
            break
        time.sleep(0.1)
    types = [body["type"] for _, body in received]
    assert "reservation.checked_out" in types, types
    headers, body = received[-1]
    assert headers.get("webhook-signature", "").startswith("v1,"), headers
    assert body["feed_id"].startswith("feed_"), body
    print(f"scenario: a whole stay through the generated client passed ({len(received)} webhooks)")


main()
