import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../../../components/Icon';

const ICONS: Record<string, IconName> = { available: 'gift', used: 'check', expired: 'cross' };

/** A reward's status in words, with an icon and a shape of its own (never colour alone). */
export function RewardStatus({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = status in ICONS ? status : 'available';
  return (
    <span className={`status status--${known}`}>
      <Icon name={ICONS[known]} />
      {t(`status.${known}`)}
    </span>
  );
}
