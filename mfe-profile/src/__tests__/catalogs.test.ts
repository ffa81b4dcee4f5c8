import path from 'node:path';
import { describeCatalogs } from '@portal/kit/catalogs';

describeCatalogs(path.join(__dirname, '..', 'i18n'));
