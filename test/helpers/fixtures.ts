/** Shared test data: a customer as a partner would enter one, and a real (throwaway) CSR. */

export const ADDRESS = {
  postal_code: '220030',
  country_code: 'BY',
  region: 'Минская область',
  city: 'Минск',
  street: 'пр. Независимости',
  building: '4',
  room: '12',
};

export const NATURAL_PERSON = {
  last_name: 'Иванов',
  first_name: 'Иван',
  middle_name: 'Иванович',
  address: ADDRESS,
};

export const CONTACTS = { phone: '+375291234567', email: 'ivan@example.by' };

/** `openssl req -new` for CN=shop.example.by with a key that was thrown away at once. */
export const CSR_PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHTMHwCAQAwGjEYMBYGA1UEAwwPc2hvcC5leGFtcGxlLmJ5MFkwEwYHKoZIzj0C
AQYIKoZIzj0DAQcDQgAEzLXAl+xQ5CgRA0lHQcNKFzh8xBakP1p72EGQYOCfsgKk
nJ7s6V15U9+cZXKrt/tpz9jQdXN3crR7phm76l/VUKAAMAoGCCqGSM49BAMCA0cA
MEQCIFkmbCtQJ//R8g/jWx9EteOWCc6NF+6NjefDd5Imm3ohAiBpio5Taq7yXjvx
qXXPufCrcZBuF3nOV3GE8URGKxbC3A==
-----END CERTIFICATE REQUEST-----`;
