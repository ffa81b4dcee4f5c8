import { render, screen } from '@testing-library/react';
import { initI18n } from '@portal/runtime';
import { stubFetch, type FetchStub } from '@portal/build/src/fetch-stub';
import { Root } from '../Root';
import { queryClient } from '../providers';

let stub: FetchStub | undefined;
beforeEach(() => initI18n('?lang=en'));
afterEach(() => {
  stub?.restore();
  queryClient.clear();
});

describe('mfe-qff', () => {
  it('shows number and points when linked', async () => {
    stub = stubFetch({ 'GET /api/qff/points': { body: { linked: true, qff_number: '1900123456', points: 12000 } } });
    render(<Root />);
    expect(screen.getByRole('heading', { name: 'Qantas Frequent Flyer' })).toBeInTheDocument();
    expect(await screen.findByText('1900123456')).toBeInTheDocument();
    expect(screen.getByText('12,000')).toBeInTheDocument();
  });

  it('explains linking when not linked', async () => {
    stub = stubFetch({ 'GET /api/qff/points': { body: { linked: false } } });
    render(<Root />);
    expect(await screen.findByText(/Link your Qantas Frequent Flyer membership/)).toBeInTheDocument();
  });
});
