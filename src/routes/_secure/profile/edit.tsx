import { createFileRoute } from '@tanstack/react-router';
import { ProfileEditPage } from '../../../features/profile/components/profile-edit-page.tsx';

export const Route = createFileRoute('/_secure/profile/edit')({
  component: ProfileEditPage,
});
