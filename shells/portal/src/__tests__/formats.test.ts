// The kit's one set of date formats and its signed numbers (issue 24), as every tab and the shell
// show them: each named style in English, Arabic, German and Thai.
import { DATE_STYLES, dayIn, formatCalendarDate, formatDate, type DateStyle } from '@portal/kit/dates';
import { formatNumber, formatSigned, localeFor } from '@portal/kit/format';

const ZONE = 'Australia/Melbourne';
// 07:17 UTC on Tuesday 24 November 2026 is 6:17 pm in Melbourne (daylight saving, UTC+11).
const AT = '2026-11-24T07:17:00Z';

const EXPECTED: Record<string, Record<DateStyle, string>> = {
  en: {
    date: '24 Nov 2026',
    dateTime: '24 Nov 2026, 6:17 pm',
    weekdayDate: 'Tuesday 24 Nov 2026',
    weekdayDateTime: 'Tuesday 24 Nov 2026, 6:17 pm',
    time: '6:17 pm',
  },
  // Western digits, as the app has always shown Arabic.
  ar: {
    date: '24 نوفمبر 2026',
    dateTime: '24 نوفمبر 2026، 6:17 م',
    weekdayDate: 'الثلاثاء، 24 نوفمبر 2026',
    weekdayDateTime: 'الثلاثاء، 24 نوفمبر 2026، 6:17 م',
    time: '6:17 م',
  },
  de: {
    date: '24. Nov. 2026',
    dateTime: '24. Nov. 2026, 18:17',
    weekdayDate: 'Dienstag, 24. Nov. 2026',
    weekdayDateTime: 'Dienstag, 24. Nov. 2026, 18:17',
    time: '18:17',
  },
  // The Buddhist era (2026 + 543), Thai's own calendar, with Western digits.
  th: {
    date: '24 พ.ย. 2569',
    dateTime: '24 พ.ย. 2569 18:17',
    weekdayDate: 'วันอังคารที่ 24 พ.ย. 2569',
    weekdayDateTime: 'วันอังคารที่ 24 พ.ย. 2569 18:17',
    time: '18:17',
  },
};

describe('the named date formats', () => {
  it.each(Object.keys(EXPECTED))('are the same five styles in %s', (lang) => {
    const shown = Object.fromEntries((Object.keys(DATE_STYLES) as DateStyle[]).map((style) => [style, formatDate(AT, lang, ZONE, style)]));
    expect(shown).toEqual(EXPECTED[lang]);
  });

  it('show an instant in the zone given, whatever the device’s', () => {
    // 13:30 UTC on 31 Dec is already New Year's Day in Melbourne.
    expect(formatDate('2026-12-31T13:30:00Z', 'en', ZONE)).toBe('1 Jan 2027');
    expect(formatDate('2026-12-31T13:30:00Z', 'en', 'Australia/Perth')).toBe('31 Dec 2026');
    expect(dayIn('2026-12-31T13:30:00Z', ZONE)).toBe('2027-01-01');
  });

  it('show a calendar date (the airline’s, a claim’s) as it is, never shifted by a zone', () => {
    expect(formatCalendarDate('2026-11-29', 'en')).toBe('29 Nov 2026');
    expect(formatCalendarDate('2026-11-29', 'ar')).toBe('29 نوفمبر 2026');
    expect(formatCalendarDate('2026-11-29', 'th')).toBe('29 พ.ย. 2569');
    expect(formatCalendarDate('2026-11-24', 'de', 'weekdayDate')).toBe('Dienstag, 24. Nov. 2026');
    expect(formatCalendarDate('soon', 'en')).toBe('soon');
  });

  it('have nothing to show for no date or a broken one', () => {
    expect(formatDate(null, 'en', ZONE)).toBeNull();
    expect(formatDate('', 'en', ZONE)).toBeNull();
    expect(formatDate('not a date', 'en', ZONE)).toBeNull();
  });

  it('give a list mixing this year’s, next year’s and other zones’ dates one style', () => {
    const dates = ['2026-11-24T07:17:00Z', '2026-12-21T00:00:00Z', '2027-01-05T03:00:00Z', '2027-07-29T10:00:00Z', '2028-02-01T12:00:00Z'];
    const patterns: Record<string, RegExp> = {
      en: /^\d{1,2} [A-Z][a-z]{2,3} \d{4}$/,
      ar: /^\d{1,2} [\u0600-\u06ff]+ \d{4}$/,
      de: /^\d{1,2}\. [A-Z][a-zä]{2,3}\.? \d{4}$/,
      th: /^\d{1,2} [\u0e00-\u0e7f]+\.[\u0e00-\u0e7f]+\. \d{4}$/,
    };
    for (const [lang, pattern] of Object.entries(patterns)) {
      for (const at of dates) expect(formatDate(at, lang, ZONE)).toMatch(pattern);
      expect(formatCalendarDate('2027-07-29', lang)).toMatch(pattern);
    }
  });
});

describe('numbers', () => {
  it('pin one choice of digits and calendar per language', () => {
    expect(localeFor('en')).toBe('en-AU');
    expect(localeFor('ar')).toBe('ar-u-nu-latn');
    expect(localeFor('th')).toBe('th-u-ca-buddhist-nu-latn');
    expect(formatNumber(48250, 'ar')).toBe('48,250');
    expect(formatNumber(48250, 'de')).toBe('48.250');
  });

  it('show a signed quantity with its sign, a real minus, and no bidi mark of the locale', () => {
    expect(formatSigned(500, 'en')).toBe('+500');
    expect(formatSigned(-250, 'en')).toBe('\u2212250');
    expect(formatSigned(0, 'en')).toBe('0');
    expect(formatSigned(-1, 'ar')).toBe('\u22121');
    expect(formatSigned(1500, 'de')).toBe('+1.500');
    expect(formatSigned(2, 'ar', { plus: false })).toBe('2');
    expect(formatSigned(-1, 'ar', { plus: false })).toBe('\u22121');
  });
});
