"""Checks CIS requests innkeep produced with independent implementations: the enveloped XML
signature with signxml (lxml's exclusive C14N and pyca/cryptography), independently of
innkeep's own signer and of the simulator's verifier; and the message against the tax
administration's official schema (tests/fixtures/hr-cis, v1.9) with libxml2's validator
(lxml), independently of the simulator's own. Usage: verify_xmldsig.py REQUEST.xml..."""
import sys

from lxml import etree
from signxml import DigestAlgorithm, SignatureConfiguration, SignatureMethod, XMLVerifier

NS = {"tns": "http://www.apis-it.hr/fin/2012/types/f73", "ds": "http://www.w3.org/2000/09/xmldsig#"}
SCHEMA = etree.XMLSchema(etree.parse("tests/fixtures/hr-cis/FiskalizacijaSchema.xsd"))
MESSAGES = {"{%s}%s" % (NS["tns"], m) for m in ("RacunZahtjev", "PromijeniNacPlacZahtjev")}

for path in sys.argv[1:]:
    data = open(path, "rb").read()
    doc = etree.fromstring(data)
    message = next(e for e in doc.iter() if e.tag in MESSAGES)
    if not SCHEMA.validate(message):
        sys.exit("%s: %s breaks the official schema: %s" % (path, message.tag, SCHEMA.error_log))
    cert = doc.find(".//ds:X509Certificate", NS).text.strip()
    pem = "-----BEGIN CERTIFICATE-----\n" + cert + "\n-----END CERTIFICATE-----\n"
    config = SignatureConfiguration(
        signature_methods=frozenset({SignatureMethod.RSA_SHA1}),
        digest_algorithms=frozenset({DigestAlgorithm.SHA1}),
        require_x509=False,
        expect_references=1,
    )
    result = XMLVerifier().verify(data, x509_cert=pem, expect_config=config, id_attribute="Id")
    signed = result.signed_xml
    assert signed.tag == message.tag, signed.tag
    zki = signed.find("tns:Racun/tns:ZastKod", NS).text
    name = message.tag.split("}")[1]
    print("lxml and signxml: %s matches the 1.9 schema and its signature verifies (ZastKod %s)"
          % (name, zki))
