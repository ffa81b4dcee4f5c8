import path from 'node:path';
import { describePluralCatalogs } from '@portal/kit/catalogs';

describePluralCatalogs(path.join(__dirname, '..', 'i18n'), { name: 'mfe-rewards', minKeys: 51 });
