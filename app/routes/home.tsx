export default function Home() {
  return <h1>Flagstaff</h1>;
}
