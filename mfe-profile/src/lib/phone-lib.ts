// Only what My Details uses of libphonenumber-js (with its "min" metadata), so the chunk loaded
// on the phone field's first use holds no more than that.
export { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/min';
