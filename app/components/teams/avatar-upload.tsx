import { useTranslation } from "react-i18next";
import { avatarLabels, ImageUpload } from "~/components/ui/image-upload";

/** Chooses and uploads a team avatar, showing the upload's progress. */
export function AvatarUpload({ teamId, onUploaded }: { teamId: number; onUploaded: () => void }) {
  const { t } = useTranslation();
  return <ImageUpload url={`/api/team/${teamId}/avatar`} labels={avatarLabels(t, "teams")} onUploaded={onUploaded} />;
}
