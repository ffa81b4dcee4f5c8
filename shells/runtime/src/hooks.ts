import { useStore } from './store';
import { authStore, type AuthState } from './auth-store';
import { toastStore, visibleToasts, type Toast } from './toasts';
import { configStore } from './config';
import { networkStore } from './network';
import { progressStore } from './progress';
import { languageStore } from './i18n';

export const useAuth = (): AuthState => useStore(authStore);
export const useToasts = (): Toast[] => visibleToasts(useStore(toastStore).toasts);
export const useConfig = () => useStore(configStore);
export const useOnline = (): boolean => useStore(networkStore).online;
export const useProgress = (): number => useStore(progressStore).pending;
export const useLanguage = () => useStore(languageStore);
