// Issue 4, the profile tab, against the real backend: edits are kept across a reload, the
// language switches live (Arabic right-to-left, no reload), a refused phone number changes nothing, and
// each page reports one screen view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, signIn } from './helpers.mjs';

/** Every analytics event the page sends to a native wrapper (stood in for by this hook). */
function recordAnalytics() {
  window.__analytics = [];
  window.ReactNativeWebView = {
    postMessage(message) {
      const m = JSON.parse(message);
      if (m.action === 'firebaseAnalytics') window.__analytics.push(`${m.type}:${m.name}`);
    },
  };
}

async function api(token, method, path, body) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const subnav = (page) => page.getByRole('navigation', { name: 'My details sections' });

test(
  'a member edits details, a size and a messaging preference, switches to Arabic live, and a refused phone number changes nothing',
  { timeout: 120_000 },
  async () => {
    const page = await newPage({ width: 1280, height: 900 });
    await page.addInitScript(recordAnalytics);
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/home');
    const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
    const before = (await api(token, 'GET', '/api/profile')).body;
    assert.equal(before.email, 'demo@example.com');
    try {
      // My Details: the first name.
      await page.getByRole('link', { name: 'My Details', exact: true }).first().click();
      await page.getByRole('heading', { name: 'Personal details', level: 2 }).waitFor();
      const firstName = page.getByLabel('First name');
      assert.equal(await firstName.inputValue(), before.first_name);
      await firstName.fill('Danielle');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Your changes have been saved').waitFor();
      await page.getByText('Danielle Demo').waitFor();

      // My Size: tops.
      await subnav(page).getByRole('link', { name: 'My Size', exact: true }).click();
      const tops = page.locator('form', { has: page.getByRole('heading', { name: 'Tops', level: 2 }) });
      await tops.getByLabel('Size', { exact: true }).selectOption('10');
      await tops.getByLabel('Fit').selectOption('relaxed');
      await tops.getByRole('button', { name: 'Save Tops' }).click();
      await tops.getByText('Saved: AU/UK 10, Relaxed fit').waitFor();
      // Shoes are convertible: the saved size is shown in the other systems too (same index).
      const shoes = page.locator('form', { has: page.getByRole('heading', { name: 'Shoes', level: 2 }) });
      await shoes.getByLabel('Size', { exact: true }).selectOption('8');
      await shoes.getByRole('button', { name: 'Save Shoes' }).click();
      await shoes.getByText('Saved: AU/UK 8, Standard fit').waitFor();
      await shoes.getByText('US 9', { exact: true }).waitFor();
      await shoes.getByText('EU 42', { exact: true }).waitFor();

      // Messaging Preferences: SMS on, applied at once and kept by the server.
      await subnav(page).getByRole('link', { name: 'Messaging Preferences', exact: true }).click();
      const sms = page.getByRole('switch', { name: 'SMS' });
      const smsBefore = before.attributes.comms.sms === true;
      assert.equal(await sms.isChecked(), smsBefore);
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/profile/attributes/comms') && r.request().method() === 'PUT');
      await sms.click();
      assert.equal((await saved).status(), 200);
      assert.equal(await sms.isChecked(), !smsBefore);

      // One screen view per page shown, with the tab and sub-navigation click events and each save's event.
      await page.waitForFunction(() => window.__analytics.includes('event:messaging_preferences_save'));
      const shown = await page.evaluate(() => window.__analytics);
      assert.deepEqual(shown.slice(shown.lastIndexOf('screen_view:Home') + 1), [
        'event:my_details_click',
        'screen_view:My Details',
        'event:my_details_save',
        'event:my_size_click',
        'screen_view:My Size',
        'event:my_size_save',
        'event:my_size_save',
        'event:messaging_preferences_click',
        'screen_view:Messaging Preferences',
        'event:messaging_preferences_save',
      ]);

      // Reload: all three kept.
      await page.reload();
      await page.getByRole('switch', { name: 'SMS' }).waitFor();
      // The page may first draw the profile it kept from before the save (spec 4: the cache is shown
      // marked stale, then reloaded; it is written at most once a second): wait for the reload.
      await page.waitForFunction((want) => document.getElementById('comms-sms')?.checked === want, !smsBefore);
      assert.equal(await page.getByRole('switch', { name: 'SMS' }).isChecked(), !smsBefore);
      await page
        .getByRole('listitem')
        .filter({ hasText: `SMS: ${smsBefore ? 'Not subscribed' : 'Subscribed'}` })
        .filter({ hasText: 'Changed by you' })
        .first()
        .waitFor();
      await page.goto(`${BASE}/size`);
      await page.getByText('Saved: AU/UK 10, Relaxed fit').waitFor();
      await page.goto(`${BASE}/profile`);
      await page.getByRole('heading', { name: 'Personal details', level: 2 }).waitFor();
      assert.equal(await page.getByLabel('First name').inputValue(), 'Danielle');

      // An invalid phone: the field error under the field, focused, what was typed kept; nothing saved.
      // (The email is shown, not typed over: it changes through its own verified dialog, email-change.test.mjs.)
      await page.getByRole('group', { name: 'Email address' }).getByText('demo@example.com').waitFor();
      const phone = page.getByLabel('Mobile phone');
      await phone.fill('0400');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForFunction(() => document.getElementById('pf-phone')?.getAttribute('aria-invalid') === 'true');
      const message = await page.locator('#pf-phone-error [role=alert]').textContent();
      assert.ok(message && message.length > 0, 'the server’s message is shown under the phone field');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'pf-phone');
      assert.equal(await phone.inputValue(), '0400');
      await page.getByText('Please check the highlighted fields').waitFor();
      // A reload keeps the unsaved edit in this tab and says so; discarding it shows what is saved.
      await page.reload();
      await page.getByRole('heading', { name: 'Personal details', level: 2 }).waitFor();
      await page.getByText("We kept the changes you hadn't saved.").waitFor();
      assert.equal(await page.getByLabel('Mobile phone').inputValue(), '0400');
      await page.getByRole('button', { name: 'Discard changes' }).click();
      await page.waitForFunction((want) => document.getElementById('pf-phone')?.value === want, before.phone ?? '');
      assert.equal((await api(token, 'GET', '/api/profile')).body.phone, before.phone);

      // Preference: Arabic, right-to-left at once, without a page load.
      await page.evaluate(() => (window.__samePage = true));
      await subnav(page).getByRole('link', { name: 'Preference', exact: true }).click();
      const stored = page.waitForResponse((r) => r.url().endsWith('/api/profile/attributes/custom/locale:language'));
      await page.getByRole('radio', { name: 'العربية' }).click();
      await page.waitForFunction(() => document.documentElement.dir === 'rtl' && document.documentElement.lang === 'ar');
      await page.getByRole('heading', { name: 'التفضيلات', level: 1 }).waitFor();
      assert.equal((await stored).status(), 200);
      assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');
      assert.equal((await api(token, 'GET', '/api/profile')).body.custom_attributes.locale.language, 'ar');

      // Since the last load: My Details, then Preference (which has no click event), the language saved.
      await page.waitForFunction(() => window.__analytics.includes('event:preference_language_save'));
      assert.deepEqual(await page.evaluate(() => window.__analytics), [
        'screen_view:My Details',
        'screen_view:Preference',
        'event:preference_language_save',
      ]);
      assert.deepEqual(page.errors, []);
    } finally {
      // Leave demo@example.com as the other tests expect it (English, its name, its preferences).
      await api(token, 'PUT', '/api/profile/attributes/custom/locale:language', {
        value: before.custom_attributes?.locale?.language ?? 'en',
      });
      await api(token, 'PUT', '/api/profile', { first_name: before.first_name });
      await api(token, 'PUT', '/api/profile/attributes/comms', { sms: before.attributes.comms.sms === true });
      for (const garment of ['tops', 'shoes']) {
        await api(token, 'PUT', `/api/profile/attributes/custom/size:${garment}`, {
          value: before.custom_attributes?.size?.[garment] ?? '',
        });
      }
    }
  },
);

// Issue 24: My Details names the region, the country and the state in the member's language
// ("Australia", "Victoria"; "أستراليا" in Arabic), and a messaging switch says "Saved" next to itself.
for (const [label, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
]) {
  test(`names the region and confirms a messaging switch next to it, English and Arabic (${label})`, { timeout: 90_000 }, async () => {
    const page = await newPage(viewport);
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/home');
    const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
    const before = (await api(token, 'GET', '/api/profile')).body;
    const selectedText = (name) => page.getByLabel(name, { exact: true }).evaluate((s) => s.options[s.selectedIndex]?.text);
    try {
      // Demo's address is in Victoria, Australia (put it there if another test moved it).
      await api(token, 'PUT', '/api/profile', { address: { ...(before.address ?? {}), country: 'AU', state: 'VIC' } });
      await page.goto(`${BASE}/profile`);
      await page.getByRole('heading', { name: 'Personal details', level: 2 }).waitFor();
      const region = page.locator('dt', { hasText: 'Region' }).locator('xpath=following-sibling::dd[1]');
      assert.equal((await region.textContent()).trim(), 'Australia');
      await page.waitForFunction(() => document.getElementById('pf-address-state')?.tagName === 'SELECT');
      assert.equal(await selectedText('Country'), 'Australia');
      assert.equal(await selectedText('State or region'), 'Victoria');

      // Messaging: "Saved" appears next to the switch changed, in a polite live region, then goes.
      await page.goto(`${BASE}/messaging`);
      const sms = page.getByRole('switch', { name: 'SMS' });
      await sms.waitFor();
      const row = page.getByRole('listitem').filter({ has: sms });
      const status = row.getByRole('status');
      assert.equal(await status.getAttribute('aria-live'), 'polite');
      await sms.click();
      await status.getByText('Saved', { exact: true }).waitFor();
      // Next to it: on the same line as the switch.
      const [s, w] = [await status.boundingBox(), await sms.boundingBox()];
      assert.ok(Math.abs(s.y + s.height / 2 - (w.y + w.height / 2)) < 20, 'the confirmation is beside the switch');
      await page.waitForFunction((el) => el.textContent === '', await status.elementHandle(), { timeout: 8000 });

      // Arabic: the country by its Arabic name.
      await api(token, 'PUT', '/api/profile/attributes/custom/locale:language', { value: 'ar' });
      await page.goto(`${BASE}/profile?lang=ar`);
      await page.waitForFunction(() => document.documentElement.lang === 'ar');
      await page.getByRole('heading', { name: 'البيانات الشخصية', level: 2 }).waitFor();
      const regionAr = page.locator('dt', { hasText: 'المنطقة' }).locator('xpath=following-sibling::dd[1]');
      assert.equal((await regionAr.textContent()).trim(), 'أستراليا');
      assert.equal(await selectedText('الدولة'), 'أستراليا');
      await page.goto(`${BASE}/messaging?lang=ar`);
      const smsAr = page.locator('#comms-sms');
      await smsAr.waitFor();
      await smsAr.click();
      await page.getByRole('listitem').filter({ has: smsAr }).getByRole('status').getByText('تم الحفظ').waitFor();
      assert.deepEqual(page.errors, []);
    } finally {
      await api(token, 'PUT', '/api/profile/attributes/custom/locale:language', {
        value: before.custom_attributes?.locale?.language ?? 'en',
      });
      await api(token, 'PUT', '/api/profile/attributes/comms', { sms: before.attributes.comms.sms === true });
      if (before.address) await api(token, 'PUT', '/api/profile', { address: before.address });
    }
  });
}
