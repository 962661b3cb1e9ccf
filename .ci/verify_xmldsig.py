"""Verifies the enveloped XML signature of a CIS RacunZahtjev with signxml (lxml's
exclusive C14N and pyca/cryptography), independently of innkeep's own signer and of the
simulator's verifier. Usage: verify_xmldsig.py REQUEST.xml"""
import sys

from lxml import etree
from signxml import DigestAlgorithm, SignatureConfiguration, SignatureMethod, XMLVerifier

NS = {"tns": "http://www.apis-it.hr/fin/2012/types/f73", "ds": "http://www.w3.org/2000/09/xmldsig#"}

data = open(sys.argv[1], "rb").read()
doc = etree.fromstring(data)
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
assert signed.tag == "{%s}RacunZahtjev" % NS["tns"], signed.tag
zki = signed.find("tns:Racun/tns:ZastKod", NS).text
print("signxml: the signature of RacunZahtjev verifies (ZastKod %s)" % zki)
