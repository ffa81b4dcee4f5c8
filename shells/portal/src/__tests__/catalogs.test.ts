import path from 'node:path';
import { describeCatalogs, describePluralCatalogs } from '@portal/kit/catalogs';

describeCatalogs(path.join(__dirname, '..', 'i18n'));

// The member's card has its own namespace (its strings come with its chunk), counted texts included.
describePluralCatalogs(path.join(__dirname, '..', 'features', 'card', 'i18n'), { name: 'member card', minKeys: 9 });

// The store and event pages have their own namespace too (their strings come with their chunk).
describeCatalogs(path.join(__dirname, '..', 'features', 'stores', 'i18n'));

// The undo screen of a changed sign-in address too.
describeCatalogs(path.join(__dirname, '..', 'features', 'email-change', 'i18n'));
