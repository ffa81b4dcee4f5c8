// Inside a native wrapper: the frequent-flyer events reach the app's bridge with the prefix of the
// tab they happen in (spec 9): rewards_ in the Rewards tab, my_details_ in My Details, and the
// summary's link to Rewards as rewards_click.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { installReactNative, postedEvents, removeNativeWrappers } from '@portal/kit/native-testing';
import { LINKED, NOT_LINKED, backend, conversion, renderView, resetAll } from './fixtures';

let stub: FetchStub;
let posted: Record<string, unknown>[];
beforeEach(() => {
  resetAll();
  posted = [];
  installReactNative(posted);
});
afterEach(() => {
  stub.restore();
  removeNativeWrappers();
});

const events = () => postedEvents(posted);

it('posts rewards_qff_convert with the conversion when points are converted in Rewards', async () => {
  stub = backend({
    'GET /api/qff/points': { body: LINKED },
    'POST /api/qff/redeem': { body: { data: conversion({ points: 1000, airline_points: 500, blocks: 1, balance: 2049 }) } },
  });
  await renderView('full');
  const section = await screen.findByRole('region', { name: 'Convert points to Qantas Points' });
  await within(section).findByText('You have 3,049 points.');
  fireEvent.click(within(section).getByRole('button', { name: 'Convert' }));
  fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Convert points' }));
  await screen.findByRole('dialog', { name: 'Points converted' });
  await waitFor(() =>
    expect(events()).toEqual([{ name: 'rewards_qff_convert', params: { points: 1000, airline_points: 500, status: 'completed' } }]),
  );
});

it('posts my_details_qff_link when the account is linked from My Details', async () => {
  let linked = false;
  stub = backend({
    'GET /api/qff/points': () => ({ body: linked ? LINKED : NOT_LINKED }),
    'POST /api/qff/validate': { body: { data: { qff_number: '1900123456', first_name: 'Dana', last_name: 'Demo' } } },
    'POST /api/qff/link': () => {
      linked = true;
      return { body: LINKED };
    },
  });
  await renderView('identity', '/profile');
  await screen.findByRole('form', { name: 'Link your Qantas Frequent Flyer account' });
  fireEvent.change(screen.getByLabelText('Frequent Flyer number'), { target: { value: '1900123456' } });
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Yes, link this account' }));
  await screen.findByText('1900123456');
  await waitFor(() => expect(events()).toEqual([{ name: 'my_details_qff_link', params: {} }]));
});

it("posts rewards_click from the summary's link to Rewards on /home", async () => {
  stub = backend({ 'GET /api/qff/points': { body: LINKED } });
  await renderView('summary', '/home');
  fireEvent.click(await screen.findByRole('link', { name: 'Convert points and see your Qantas activity' }));
  expect(events()).toEqual([{ name: 'rewards_click', params: {} }]);
});
