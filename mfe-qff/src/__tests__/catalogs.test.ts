import path from 'node:path';
import { describePluralCatalogs } from '@portal/kit/catalogs';

// The summary's few strings (bundled on /home) and the account views' (in their own chunk).
describePluralCatalogs(path.join(__dirname, '..', 'i18n', 'summary'), { name: 'mfe-qff summary', minKeys: 6 });
describePluralCatalogs(path.join(__dirname, '..', 'i18n', 'account'), { name: 'mfe-qff account', minKeys: 80 });
