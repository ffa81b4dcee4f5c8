import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addToast, isHttpError, track, useAuth, type Profile } from '@portal/runtime';
import { profileKey, setProfile } from '../../shared/hooks/use-profile';
import { getCommsHistory, putComms, type CommsUpdate } from '../api/comms';

const historyKey = (profileId: string | null) => ['comms-history', profileId] as const;

export function useCommsHistory() {
  const { profile_id, authenticated } = useAuth();
  return useQuery({
    queryKey: historyKey(profile_id),
    queryFn: ({ signal }) => getCommsHistory(signal),
    enabled: authenticated,
  });
}

function withComms(profile: Profile | undefined, values: CommsUpdate): Profile | undefined {
  if (!profile) return profile;
  const attributes = profile.attributes ?? { comms: {} };
  return { ...profile, attributes: { ...attributes, comms: { ...attributes.comms, ...values } } };
}

/**
 * Changes messaging preferences optimistically: the page shows the change at once; if the server
 * refuses, the preferences it changed go back to what they were, an error toast says so, and the
 * error is rethrown (spec 8) to whoever awaits `mutateAsync`. Changes run one at a time. A saved
 * change is reported as messaging_preferences_save (which preference, subscribed or not).
 */
export function useUpdateComms() {
  const client = useQueryClient();
  const { t } = useTranslation();
  const { profile_id } = useAuth();
  const key = profileKey(profile_id);
  return useMutation({
    mutationKey: ['comms'],
    scope: { id: 'comms' },
    mutationFn: (change: CommsUpdate) => putComms(change),
    onMutate: async (change) => {
      // A reload landing now would overwrite the optimistic value.
      await client.cancelQueries({ queryKey: key });
      const comms = client.getQueryData<Profile>(key)?.attributes?.comms ?? {};
      const previous: CommsUpdate = {};
      for (const k of Object.keys(change)) previous[k] = comms[k] === true;
      client.setQueryData<Profile>(key, (p) => withComms(p, change));
      return { previous };
    },
    onError: (err, _change, context) => {
      // Only what this change touched goes back (another change made meanwhile stays).
      if (context) client.setQueryData<Profile>(key, (p) => withComms(p, context.previous));
      // A 403 (staff viewing the account) is already told by the runtime.
      if (!(isHttpError(err) && err.status === 403)) addToast({ type: 'error', text: t('messaging.failed'), timeout: 5000 });
    },
    onSuccess: (profile, change) => {
      for (const [preference, subscribed] of Object.entries(change))
        track('messaging_preferences_save', { preference, subscribed: subscribed === true });
      // The answer has the server's preferences; changes still queued behind this one stay shown.
      const queued = client.getMutationCache().findAll({ mutationKey: ['comms'], status: 'pending' });
      setProfile(
        client,
        profile_id,
        queued.reduce((p, m) => withComms(p, m.state.variables as CommsUpdate) ?? p, profile),
      );
      return client.invalidateQueries({ queryKey: historyKey(profile_id) });
    },
  });
}
