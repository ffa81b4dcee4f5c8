import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FetchStub, StubRequest } from '@portal/kit/fetch-stub';
import {
  LINKED,
  NOT_LINKED,
  PARTNER_DOWN,
  backend,
  callsTo,
  eventNames,
  failure,
  partnerDown,
  renderView,
  resetAll,
  toasts,
} from './fixtures';

let stub: FetchStub;

beforeEach(() => resetAll());
afterEach(() => stub.restore());

const DANA = { data: { qff_number: '1900123456', first_name: 'Dana', last_name: 'Demo' } };

const numberField = () => screen.getByLabelText('Frequent Flyer number') as HTMLInputElement;
const lastNameField = () => screen.getByLabelText('Last name on the Frequent Flyer account (optional)') as HTMLInputElement;

async function openWizard(view: 'full' | 'identity' = 'full') {
  await renderView(view, view === 'full' ? '/rewards' : '/profile');
  await screen.findByRole('form', { name: 'Link your Qantas Frequent Flyer account' });
}

async function submitNumber(number: string, lastName?: string) {
  fireEvent.change(numberField(), { target: { value: number } });
  if (lastName !== undefined) fireEvent.change(lastNameField(), { target: { value: lastName } });
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
}

describe('link wizard', () => {
  it('checks the number with Qantas, asks "Is this you?", links on yes and shows the linked account', async () => {
    let linked = false;
    stub = backend({
      'GET /api/qff/points': () => ({ body: linked ? LINKED : NOT_LINKED }),
      'POST /api/qff/validate': { body: DANA },
      'POST /api/qff/link': () => {
        linked = true;
        return { body: LINKED };
      },
    });
    await openWizard();
    expect(screen.getByText('Step 1 of 2')).toBeInTheDocument();
    expect(lastNameField().value).toBe('');
    expect(lastNameField()).toHaveAccessibleDescription(/^Leave it empty if it's the same as on your profile\.\s*$/);
    await submitNumber(' 1900 123456 ');

    const title = await screen.findByRole('heading', { name: 'Is this you?' });
    expect(callsTo(stub, 'POST', '/api/qff/validate')[0].body).toEqual({ qff_number: '1900123456' });
    expect(document.activeElement).toBe(title);
    expect(screen.getByText('Step 2 of 2')).toBeInTheDocument();
    const group = screen.getByRole('group', { name: 'Is this you?' });
    expect(group).toHaveTextContent('Dana Demo, 1900123456');
    expect(callsTo(stub, 'POST', '/api/qff/link')).toHaveLength(0);

    fireEvent.click(within(group).getByRole('button', { name: 'Yes, link this account' }));
    await waitFor(() => expect(toasts()).toContain('success: Your Qantas Frequent Flyer account is linked'));
    expect(callsTo(stub, 'POST', '/api/qff/link')[0].body).toEqual({ qff_number: '1900123456' });
    expect(await screen.findByText('48,250 Qantas Points')).toBeInTheDocument();
    expect(screen.getByText('1900123456')).toBeInTheDocument();
    expect(eventNames()).toContain('rewards_qff_link');
    // The section's heading takes the focus (the form that had it is gone).
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Qantas Frequent Flyer' }));
  });

  it('sends the last name when one is typed, and "No" goes back to the number', async () => {
    stub = backend({ 'POST /api/qff/validate': { body: DANA } });
    await openWizard();
    await submitNumber('1900123456', ' Demo ');
    await screen.findByRole('heading', { name: 'Is this you?' });
    expect(callsTo(stub, 'POST', '/api/qff/validate')[0].body).toEqual({ qff_number: '1900123456', last_name: 'Demo' });
    fireEvent.click(screen.getByRole('button', { name: 'No, change the number' }));
    await waitFor(() => expect(document.activeElement).toBe(numberField()));
    expect(numberField().value).toBe('1900123456');
    expect(lastNameField().value).toBe(' Demo ');
  });

  it('asks for a number before asking Qantas', async () => {
    stub = backend();
    await openWizard();
    await submitNumber('  ');
    await waitFor(() => expect(numberField()).toHaveAttribute('aria-invalid', 'true'));
    expect(numberField()).toHaveAccessibleDescription(
      '6 to 10 digits, as on your membership card or in the Qantas app. Enter your Frequent Flyer number',
    );
    expect(document.activeElement).toBe(numberField());
    expect(callsTo(stub, 'POST', '/api/qff/validate')).toHaveLength(0);
  });

  it.each([
    [422, 'qff_number', 'A Frequent Flyer number has 6 to 10 digits'],
    [422, 'qff_number', "We couldn't find a Frequent Flyer account with this number"],
    [422, 'qff_number', 'This Frequent Flyer account is closed'],
    [409, 'qff_number', 'This Frequent Flyer account is already linked to another member'],
    [422, 'last_name', "This last name doesn't match the Frequent Flyer account"],
  ])('shows the server’s %s %s refusal as it is, at its field: %s', async (status, field, message) => {
    stub = backend({ 'POST /api/qff/validate': failure(status, 'Please check the highlighted fields', { [field]: message }) });
    await openWizard();
    await submitNumber('1900000002', 'Closed');
    const [wrong, right] = field === 'qff_number' ? [numberField(), lastNameField()] : [lastNameField(), numberField()];
    await waitFor(() => expect(wrong).toHaveAttribute('aria-invalid', 'true'));
    expect(wrong).toHaveAccessibleDescription(new RegExp(`${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    expect(document.activeElement).toBe(wrong);
    expect(right).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('heading', { name: 'Is this you?' })).toBeNull();
  });

  it('says when Qantas is not answering, with a retry that asks again', async () => {
    let down = true;
    stub = backend({ 'POST /api/qff/validate': () => (down ? partnerDown() : { body: DANA }) });
    await openWizard();
    await submitNumber('1900123456');
    const alert = await screen.findByText(PARTNER_DOWN);
    expect(alert.closest('[role="alert"]')).not.toBeNull();
    expect(numberField()).not.toHaveAttribute('aria-invalid');
    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Is this you?' })).toBeInTheDocument();
    expect(callsTo(stub, 'POST', '/api/qff/validate')).toHaveLength(2);
  });

  it('a refusal at the link step about a field goes back to that field; another is told on the step with a retry', async () => {
    const answers = [
      failure(409, 'Please check the highlighted fields', {
        qff_number: 'This Frequent Flyer account is already linked to another member',
      }),
    ];
    stub = backend({
      'POST /api/qff/validate': { body: DANA },
      'POST /api/qff/link': () => answers.shift() ?? partnerDown(),
    });
    await openWizard();
    await submitNumber('1900123456');
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, link this account' }));
    await waitFor(() => expect(numberField()).toHaveAttribute('aria-invalid', 'true'));
    expect(numberField()).toHaveAccessibleDescription(/already linked to another member$/);

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, link this account' }));
    expect(await screen.findByText(PARTNER_DOWN)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Is this you?' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(callsTo(stub, 'POST', '/api/qff/link')).toHaveLength(3));
  });

  it('tells a 409 without a field ("Unlink your current … first") on the confirmation step', async () => {
    stub = backend({
      'POST /api/qff/validate': { body: DANA },
      'POST /api/qff/link': failure(409, 'Unlink your current Frequent Flyer account first'),
    });
    await openWizard();
    await submitNumber('1900123456');
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, link this account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unlink your current Frequent Flyer account first');
  });

  it('in My Details the link is a my_details_ event', async () => {
    let linked = false;
    stub = backend({
      'GET /api/qff/points': () => ({ body: linked ? LINKED : NOT_LINKED }),
      'POST /api/qff/validate': { body: DANA },
      'POST /api/qff/link': () => {
        linked = true;
        return { body: LINKED };
      },
    });
    await openWizard('identity');
    await submitNumber('1900123456');
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, link this account' }));
    expect(await screen.findByRole('link', { name: 'Convert points and see your Qantas activity in Rewards' })).toHaveAttribute(
      'href',
      '/rewards',
    );
    expect(screen.getByText('1900123456')).toBeInTheDocument();
    expect(eventNames()).toEqual(['my_details_qff_link']);
  });
});

describe('requests', () => {
  it('are the contract’s: JSON bodies with the member’s token', async () => {
    const seen: StubRequest[] = [];
    stub = backend({
      'POST /api/qff/validate': (req) => {
        seen.push(req);
        return { body: DANA };
      },
    });
    await openWizard();
    await act(async () => submitNumber('1900123456'));
    await screen.findByRole('heading', { name: 'Is this you?' });
    expect(seen[0].headers.Authorization).toBe('Bearer token-p_demo');
    expect(seen[0].headers['Content-Type']).toBe('application/json');
  });
});
