import { useTranslation } from 'react-i18next';
import { formatSigned } from './format';

// A signed quantity on the page ("+500", "−1"): isolated and left-to-right, so an Arabic page
// shows "−1 × …", never "1- × …". In its own entry so that a page of plain numbers (./format) does
// not carry React.

/** `value` with its sign, in the page's language; `plus={false}`: only a negative shows a sign. */
export function Signed({ value, plus = true }: { value: number; plus?: boolean }) {
  const { i18n } = useTranslation();
  return <bdi dir="ltr">{formatSigned(value, i18n.language, { plus })}</bdi>;
}
