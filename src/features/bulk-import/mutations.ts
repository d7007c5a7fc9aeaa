import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../contract/paths.ts';
import { type BulkJob, bulkJobSchema } from '../../../contract/schemas/bulk-import.ts';
import { apiFetch, apiRequest, readAnswer } from '../../lib/api-client.ts';
import { bulkImportKeys } from './queries.ts';

/*
 * Bulk user creation needs the server at every step: nothing here is queueable, and each step shows
 * its own error in the page, so none raises a toast.
 */

export const bulkImportMutationKeys = {
  validate: () => ['bulk-import', 'validate'] as const,
  start: () => ['bulk-import', 'start'] as const,
  cancel: () => ['bulk-import', 'cancel'] as const,
};

export interface BulkFileRequest {
  accountId: string;
  roleIds: readonly string[];
  file: File;
}

/** The dry run: the file's bytes as they are (never decoded here, so the server sees what is not UTF-8). */
export function useValidateBulkFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: bulkImportMutationKeys.validate(),
    meta: { errorToast: false, changes: apiPaths.users.bulkValidate },
    mutationFn: async ({ accountId, roleIds, file }: BulkFileRequest): Promise<BulkJob> => {
      const response = await apiFetch('POST', apiPaths.users.bulkValidate, {
        query: { account_id: accountId, role_ids: roleIds.join(','), file_name: file.name },
        rawBody: { contentType: 'text/csv', data: file },
      });
      return readAnswer(response, apiPaths.users.bulkValidate, bulkJobSchema);
    },
    onSuccess: (job) => queryClient.setQueryData(bulkImportKeys.job(job.id), job),
  });
}

export function useStartBulkJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: bulkImportMutationKeys.start(),
    meta: { errorToast: false, changes: apiPaths.users.bulk },
    mutationFn: (request: { jobId: string; sendInvitations: boolean }) =>
      apiRequest('POST', apiPaths.users.bulk, {
        body: { job_id: request.jobId, send_invitations: request.sendInvitations },
        schema: bulkJobSchema,
      }),
    onSuccess: (job) => queryClient.setQueryData(bulkImportKeys.job(job.id), job),
  });
}

export function useCancelBulkJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: bulkImportMutationKeys.cancel(),
    meta: { errorToast: false, changes: apiPaths.users.bulk },
    mutationFn: (jobId: string) => apiRequest('DELETE', apiPaths.users.bulkJob(jobId)),
    // Refused because the job finished meanwhile: its page shows where it got to.
    onError: (_error, jobId) => queryClient.invalidateQueries({ queryKey: bulkImportKeys.job(jobId) }),
  });
}
