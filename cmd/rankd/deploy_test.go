package main

import (
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// compose is docker-compose.yml as far as rankd uses it; parsed strictly,
// so a misspelt key (enviroment) fails.
type compose struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Build       string            `yaml:"build"`
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		DependsOn   map[string]struct {
			Condition string `yaml:"condition"`
		} `yaml:"depends_on"`
		Healthcheck map[string]any `yaml:"healthcheck"`
		Volumes     []string       `yaml:"volumes"`
		Ports       []string       `yaml:"ports"`
		Restart     string         `yaml:"restart"`
	} `yaml:"services"`
	Volumes map[string]any `yaml:"volumes"`
}

// TestDockerCompose: MongoDB runs as a replica set that an init service
// initiates, and rankd's MONGO_URI and REDIS_URL point at those services,
// naming only settings rankd reads.
func TestDockerCompose(t *testing.T) {
	b, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.UnmarshalWithOptions(b, &c, yaml.Strict()); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	for _, name := range []string{"mongo", "mongo-init", "redis", "rankd"} {
		if _, ok := c.Services[name]; !ok {
			t.Fatalf("service %s is missing", name)
		}
	}
	mongo, initSvc, redis, rankd := c.Services["mongo"], c.Services["mongo-init"], c.Services["redis"], c.Services["rankd"]

	i := slices.Index(mongo.Command, "--replSet")
	if i < 0 || i+1 >= len(mongo.Command) {
		t.Fatalf("mongo command %q has no --replSet", mongo.Command)
	}
	rs := mongo.Command[i+1]
	if !strings.HasPrefix(mongo.Image, "mongo:") || mongo.Healthcheck == nil {
		t.Errorf("mongo: image %q, healthcheck %v", mongo.Image, mongo.Healthcheck)
	}

	script := strings.Join(initSvc.Command, " ")
	initiate := regexp.MustCompile(`rs\.initiate\(\{_id: "([^"]+)", members: \[\{_id: 0, host: "([^"]+)"\}\]\}\)`).FindStringSubmatch(script)
	if initiate == nil || initiate[1] != rs || initiate[2] != "mongo:27017" {
		t.Errorf("mongo-init does not initiate replica set %q on mongo:27017: %q", rs, script)
	}
	if initSvc.DependsOn["mongo"].Condition != "service_healthy" {
		t.Errorf("mongo-init does not wait for a healthy mongo")
	}

	u, err := url.Parse(rankd.Environment["MONGO_URI"])
	if err != nil || u.Scheme != "mongodb" || u.Host != "mongo:27017" || u.Query().Get("replicaSet") != rs {
		t.Errorf("rankd MONGO_URI %q does not name the mongo service and replica set %q", rankd.Environment["MONGO_URI"], rs)
	}
	u, err = url.Parse(rankd.Environment["REDIS_URL"])
	if err != nil || u.Scheme != "redis" || u.Host != "redis:6379" {
		t.Errorf("rankd REDIS_URL %q does not name the redis service", rankd.Environment["REDIS_URL"])
	}
	if redis.Healthcheck == nil || !strings.HasPrefix(redis.Image, "redis:") {
		t.Errorf("redis: image %q, healthcheck %v", redis.Image, redis.Healthcheck)
	}
	if rankd.DependsOn["mongo-init"].Condition != "service_completed_successfully" || rankd.DependsOn["redis"].Condition != "service_healthy" {
		t.Errorf("rankd depends_on %+v: want mongo-init completed and redis healthy", rankd.DependsOn)
	}
	if rankd.Build != "." {
		t.Errorf("rankd build %q, want the Dockerfile at the root", rankd.Build)
	}
	known := EnvNames()
	for k := range rankd.Environment {
		if !slices.Contains(known, k) {
			t.Errorf("rankd environment sets %s, which rankd does not read", k)
		}
	}
	if !strings.HasPrefix(rankd.Environment["RANK_ADMIN_PASSWORD"], "${RANK_ADMIN_PASSWORD:?") {
		t.Errorf("the admin password must come from the operator's environment, not the file")
	}
}

// TestDockerfile: a multi-stage build of static binaries, run as a
// non-root user, with rankd as the entry point.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	froms := regexp.MustCompile(`(?m)^FROM \S+`).FindAllString(text, -1)
	if len(froms) < 2 || !strings.Contains(text, " AS build") || !strings.Contains(text, "COPY --from=build") {
		t.Fatalf("not a multi-stage build: %q", froms)
	}
	final := text[strings.LastIndex(text, "\nFROM "):]
	for _, want := range []string{"CGO_ENABLED=0 go build", "./cmd/rankd"} {
		if !strings.Contains(text, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	for _, want := range []string{"\nUSER rank", `ENTRYPOINT ["/usr/local/bin/rankd"]`, "EXPOSE 8080", "RANK_DATA_DIR="} {
		if !strings.Contains(final, want) {
			t.Errorf("the final stage lacks %q", want)
		}
	}
	for _, env := range regexp.MustCompile(`\b(RANK_[A-Z_]+|MONGO_[A-Z_]+|REDIS_URL)=`).FindAllStringSubmatch(text, -1) {
		if !slices.Contains(EnvNames(), env[1]) {
			t.Errorf("Dockerfile sets %s, which rankd does not read", env[1])
		}
	}
}
