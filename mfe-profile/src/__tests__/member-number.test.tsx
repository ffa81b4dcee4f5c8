// My Details shows the brand-issued member number (GET /api/profile's memberNumber) read-only, in
// groups of four; the internal profile id is never shown.
import { screen } from '@testing-library/react';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { PROFILE, backend, renderAt, resetAll } from './fixtures';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend();
});
afterEach(() => stub.restore());

describe('My Details', () => {
  it('shows the member number read-only, not the profile id', async () => {
    const { container } = await renderAt('/profile');
    await screen.findByRole('heading', { level: 2, name: 'Personal details' });
    const term = screen.getByText('Member number');
    expect(term.tagName).toBe('DT');
    const value = term.nextElementSibling as HTMLElement;
    expect(value).toHaveTextContent('1234 5678 90');
    expect(value.querySelector('input')).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Member number' })).toBeNull();
    expect(container.innerHTML).not.toContain(PROFILE.id);
  });
});
