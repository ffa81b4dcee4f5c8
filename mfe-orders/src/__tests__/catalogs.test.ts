import path from 'node:path';
import { describeCatalogs } from '@portal/build/catalogs';

describeCatalogs(path.join(__dirname, '..', 'i18n'));
