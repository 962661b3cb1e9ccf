//! A test PKI made fresh for each simulator: a CA, the company's application certificate
//! (on the fixed RSA test key, so the ZKI golden vector holds) packed as PKCS#12 with a
//! password, and the simulator's TLS certificate for 127.0.0.1.

use std::path::PathBuf;

use rcgen::{
    BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, PKCS_RSA_SHA256, SanType,
};

/// The fixed company key (PKCS#8 PEM), shared with the golden vector.
pub const COMPANY_KEY: &str = include_str!("../../../fixtures/hr-cis/company-key.pem");
/// The PKCS#12 password.
pub const PASSWORD: &str = "p12-Test$ecret";
/// The certificate's subject common name.
pub const COMPANY_CN: &str = "FISKAL 1 Hotel Test d.o.o.";

pub struct Pki {
    /// Holds the files for the simulator's lifetime.
    pub _dir: tempfile::TempDir,
    /// The company's PKCS#12 file.
    pub p12: PathBuf,
    /// The CA certificate (PEM file), the extra trust anchor.
    pub ca_pem: PathBuf,
    /// The CA certificate, DER.
    pub ca_der: Vec<u8>,
    /// The simulator's TLS certificate and key (DER).
    pub server_der: Vec<u8>,
    pub server_key_der: Vec<u8>,
}

pub fn generate() -> Pki {
    let dir = tempfile::tempdir().unwrap();
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "innkeep test Fina RDC CA");
    ca.distinguished_name.push(DnType::CountryName, "HR");
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);

    let company_key = KeyPair::from_pem_and_sign_algo(COMPANY_KEY, &PKCS_RSA_SHA256).unwrap();
    let mut company = CertificateParams::new(Vec::<String>::new()).unwrap();
    company
        .distinguished_name
        .push(DnType::CommonName, COMPANY_CN);
    company
        .distinguished_name
        .push(DnType::OrganizationName, "Hotel Test d.o.o.");
    company.distinguished_name.push(DnType::CountryName, "HR");
    company.not_before = rcgen::date_time_ymd(2025, 1, 1);
    company.not_after = rcgen::date_time_ymd(2030, 1, 1);
    company.serial_number = Some(rcgen::SerialNumber::from_slice(&[0x01, 0x23, 0x45, 0x67]));
    let company_cert = company.signed_by(&company_key, &issuer).unwrap();

    let server_key = KeyPair::generate().unwrap();
    let mut server = CertificateParams::new(Vec::<String>::new()).unwrap();
    server
        .distinguished_name
        .push(DnType::CommonName, "cistest.apis-it.hr (simulated)");
    server.subject_alt_names = vec![SanType::IpAddress([127, 0, 0, 1].into())];
    let server_cert = server.signed_by(&server_key, &issuer).unwrap();

    let mut store = p12_keystore::KeyStore::new();
    let chain = p12_keystore::PrivateKeyChain::new(
        company_key.serialize_der(),
        [1u8; 20],
        [
            p12_keystore::Certificate::from_der(company_cert.der()).unwrap(),
            p12_keystore::Certificate::from_der(ca_cert.der()).unwrap(),
        ],
    );
    store.add_entry(
        "company",
        p12_keystore::KeyStoreEntry::PrivateKeyChain(chain),
    );
    let p12 = dir.path().join("company.p12");
    std::fs::write(&p12, store.writer(PASSWORD).write().unwrap()).unwrap();
    let ca_pem = dir.path().join("ca.pem");
    std::fs::write(&ca_pem, ca_cert.pem()).unwrap();
    Pki {
        p12,
        ca_pem,
        ca_der: ca_cert.der().to_vec(),
        server_der: server_cert.der().to_vec(),
        server_key_der: server_key.serialize_der(),
        _dir: dir,
    }
}
